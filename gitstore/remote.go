package gitstore

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// TrackRemote makes a local branch from a fetched one, so a session pushed
// from another machine resumes here after a plain `git fetch` or clone: if
// refs/heads/<branch> is missing and exactly one remote has
// refs/remotes/<remote>/<branch>, the local branch is created at its commit
// (create-only, under the lock). It returns the remote's name, or
// ErrNotFound when no remote has the branch. An existing local branch is
// left alone and reported as "".
func (s *Store) TrackRemote(branch string) (string, error) {
	name, err := branchRef(branch)
	if err != nil {
		return "", err
	}
	// Look first, lock only to write: a resume of a session that exists
	// nowhere must leave the repository exactly as it was.
	if cur, err := s.readRef(name); err != nil || !cur.IsZero() {
		return "", err
	}
	remote, h, err := s.remoteBranch(name)
	if err != nil {
		return "", err
	}
	return s.takeRemote(name, remote, h, plumbing.ZeroHash, "branch: created from")
}

// takeRemote moves a local branch from old to the remote's head h under
// the lock and returns the remote's name. A branch another run moved (or
// created) meanwhile is that run's: it is left alone and reported as "".
func (s *Store) takeRemote(name plumbing.ReferenceName, remote string, h, old plumbing.Hash, why string) (string, error) {
	unlock, err := s.lock()
	if err != nil {
		return "", err
	}
	defer unlock()
	short := strings.TrimPrefix(string(name), "refs/heads/")
	if err := s.casRef(name, h, old, why+" refs/remotes/"+remote+"/"+short); err != nil {
		if errors.Is(err, errRefChanged) {
			return "", nil
		}
		return "", err
	}
	return remote, nil
}

// remoteBranch finds the one remote that has the branch.
func (s *Store) remoteBranch(name plumbing.ReferenceName) (string, plumbing.Hash, error) {
	short := strings.TrimPrefix(string(name), "refs/heads/")
	remotes, _ := os.ReadDir(filepath.Join(s.commonDir, "refs", "remotes"))
	var names []string
	for _, r := range remotes {
		names = append(names, r.Name())
	}
	packed, err := s.packedRefs()
	if err != nil {
		return "", plumbing.ZeroHash, err
	}
	for ref := range packed {
		if rest, ok := strings.CutPrefix(string(ref), "refs/remotes/"); ok {
			if remote, b, ok := strings.Cut(rest, "/"); ok && b == short {
				names = append(names, remote)
			}
		}
	}
	found := map[string]plumbing.Hash{}
	for _, remote := range names {
		h, err := s.readRef(plumbing.ReferenceName("refs/remotes/" + remote + "/" + short))
		if err == nil && !h.IsZero() {
			found[remote] = h
		}
	}
	if len(found) == 0 {
		return "", plumbing.ZeroHash, ErrNotFound
	}
	if len(found) > 1 {
		rs := slices.Sorted(maps.Keys(found))
		return "", plumbing.ZeroHash, fmt.Errorf("track %s: found on several remotes (%s); create the branch yourself", short, strings.Join(rs, ", "))
	}
	for remote, h := range found {
		return remote, h, nil
	}
	return "", plumbing.ZeroHash, ErrNotFound
}

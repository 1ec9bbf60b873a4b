package gitstore

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
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
	unlock, err := s.lock()
	if err != nil {
		return "", err
	}
	defer unlock()
	if cur, err := s.readRef(name); err != nil {
		return "", err
	} else if !cur.IsZero() {
		return "", nil
	}
	short := strings.TrimPrefix(string(name), "refs/heads/")
	found := map[string]plumbing.Hash{}
	remotes, _ := os.ReadDir(filepath.Join(s.commonDir, "refs", "remotes"))
	var names []string
	for _, r := range remotes {
		names = append(names, r.Name())
	}
	packed, err := s.packedRefs()
	if err != nil {
		return "", err
	}
	for ref := range packed {
		if rest, ok := strings.CutPrefix(string(ref), "refs/remotes/"); ok {
			if remote, b, ok := strings.Cut(rest, "/"); ok && b == short {
				names = append(names, remote)
			}
		}
	}
	for _, remote := range names {
		h, err := s.readRef(plumbing.ReferenceName("refs/remotes/" + remote + "/" + short))
		if err == nil && !h.IsZero() {
			found[remote] = h
		}
	}
	if len(found) == 0 {
		return "", ErrNotFound
	}
	if len(found) > 1 {
		var rs []string
		for r := range found {
			rs = append(rs, r)
		}
		sort.Strings(rs)
		return "", fmt.Errorf("track %s: found on several remotes (%s); create the branch yourself", short, strings.Join(rs, ", "))
	}
	for remote, h := range found {
		if err := s.casRef(name, h, plumbing.ZeroHash, "branch: created from refs/remotes/"+remote+"/"+short); err != nil {
			return "", err
		}
		return remote, nil
	}
	return "", ErrNotFound
}

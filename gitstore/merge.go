package gitstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// MergeOptions says which paths of which branch Merge brings into which branch.
type MergeOptions struct {
	Source   string   // branch the paths come from, e.g. "research/x"
	Target   string   // branch that receives the merge commit, e.g. "main"
	Paths    []string // slash paths (files or directories) taken from Source
	Message  string
	Trailers []Trailer
	When     time.Time // author and committer time; zero = GIT_*_DATE or now
}

// Merge makes a two-parent commit [target head, source head] on Target whose
// tree is Target's tree with Paths taken from Source. It refuses with
// ErrConflict, changing nothing, when Target changed any of the paths since
// the merge base, or when the user has uncommitted work on them. If Target
// is checked out (in any worktree), the files also appear in that worktree
// and its index, and every other uncommitted change stays as it was. An
// unborn Target gets a commit whose only parent is Source. When Source is
// already merged and nothing would change, it returns Target's head with
// ErrNothingToCommit.
func (s *Store) Merge(ctx context.Context, o MergeOptions) (hash string, err error) {
	srcRef, err := branchRef(o.Source)
	if err != nil {
		return "", err
	}
	tgtRef, err := branchRef(o.Target)
	if err != nil {
		return "", err
	}
	if srcRef == tgtRef {
		return "", fmt.Errorf("merge: source and target are both %s", o.Source)
	}
	if len(o.Paths) == 0 {
		return "", errors.New("merge: no paths given")
	}
	for _, p := range o.Paths {
		if err := checkTreePath(p); err != nil {
			return "", err
		}
	}
	msg, err := formatMessage(o.Message, o.Trailers)
	if err != nil {
		return "", err
	}
	sig := s.signatures(o.When)

	unlock, err := s.lock()
	if err != nil {
		return "", err
	}
	defer func() {
		if uerr := unlock(); err == nil && uerr != nil {
			err = uerr
		}
	}()
	if err := s.refreshPacks(); err != nil {
		return "", err
	}
	for attempt := range casAttempts {
		h, err := s.mergeOnce(ctx, o, srcRef, tgtRef, msg, sig)
		if errors.Is(err, errRefChanged) {
			// The user's git moved or holds the branch: back off and redo
			// the merge on its new head.
			time.Sleep(time.Duration(attempt+1) * 50 * time.Millisecond)
			continue
		}
		return h, err
	}
	return "", fmt.Errorf("merge into %s: %w after %d attempts", o.Target, errRefChanged, casAttempts)
}

// mergeOnce is one attempt of Merge under the repository lock.
func (s *Store) mergeOnce(ctx context.Context, o MergeOptions, srcRef, tgtRef plumbing.ReferenceName, msg string, sig signatures) (string, error) {
	src, err := s.readRef(srcRef)
	if err != nil {
		return "", err
	}
	if src.IsZero() {
		return "", fmt.Errorf("merge source %s: %w", o.Source, ErrNotFound)
	}
	tgt, err := s.readRef(tgtRef)
	if err != nil {
		return "", err
	}
	base, merged, err := s.mergeBase(tgt, src)
	if err != nil {
		return "", err
	}
	srcTree, err := s.commitTree(src)
	if err != nil {
		return "", err
	}
	tgtTree, err := s.commitTree(tgt)
	if err != nil {
		return "", err
	}
	baseTree, err := s.commitTree(base)
	if err != nil {
		return "", err
	}
	root, changes, err := s.takePaths(o, srcTree, tgtTree, baseTree)
	if err != nil {
		return "", err
	}
	if merged && root == tgtTree {
		return tgt.String(), ErrNothingToCommit
	}
	roots, err := s.checkouts(tgtRef)
	if err != nil {
		return "", err
	}
	for _, r := range roots {
		if err := s.checkClean(ctx, r, changes); err != nil {
			return "", err
		}
	}
	if root.IsZero() {
		if root, err = s.writeTree(nil); err != nil {
			return "", err
		}
	}
	c := &object.Commit{Author: sig.author, Committer: sig.committer, Message: msg, TreeHash: root,
		ParentHashes: []plumbing.Hash{tgt, src}}
	if tgt.IsZero() {
		c.ParentHashes = []plumbing.Hash{src}
	}
	h, err := s.writeCommit(c)
	if err != nil {
		return "", err
	}
	if err := s.moveUserRef(ctx, tgtRef, h, tgt); err != nil {
		return "", err
	}
	for _, r := range roots {
		if err := s.applyCheckout(ctx, r, changes); err != nil {
			return h.String(), fmt.Errorf("merged as %s, but update worktree %s: %w", h, r, err)
		}
	}
	return h.String(), nil
}

// moveUserRef moves a branch the user may also be moving (with git commit)
// from old to new: with `git update-ref <ref> <new> <old>` when git is
// installed, since it honours git's ref locks, else with casRef. A ref that
// moved meanwhile gives errRefChanged.
func (s *Store) moveUserRef(ctx context.Context, ref plumbing.ReferenceName, newHash, old plumbing.Hash) error {
	if gitPath() == "" {
		return s.casRef(ref, newHash, old, "rgit: merge")
	}
	_, err := runGit(ctx, s.root, nil, "update-ref", "-m", "rgit: merge", string(ref), newHash.String(), old.String())
	if err != nil && (strings.Contains(err.Error(), "but expected") || strings.Contains(err.Error(), "cannot lock") ||
		strings.Contains(err.Error(), "already exists")) {
		return fmt.Errorf("%w: %v", errRefChanged, err)
	}
	return err
}

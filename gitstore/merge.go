package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
	// Guard, when set, runs under the store lock right before the
	// checked-out worktrees and the target change; if it fails nothing
	// changes and Merge returns its error wrapped in ErrFenced.
	Guard func() error
}

// Merge makes a two-parent commit [target head, source head] on Target whose
// tree is Target's tree with Paths taken from Source. It refuses with
// ErrConflict, changing nothing, when Target changed any of the paths since
// the merge base, or when the user has uncommitted work on them. If Target
// is checked out (in any worktree), the files also appear in that worktree
// and its index, and every other uncommitted change stays as it was. An
// unborn Target that a worktree's HEAD names gets a commit whose only parent
// is Source; any other missing Target is ErrBranchNotFound. When Source is
// already merged and nothing would change, it returns Target's head with
// ErrNothingToCommit. A shallow clone is refused with ErrShallow.
//
// Worktrees and index change before the target moves, in git's own order:
// a crash in between leaves the merged files staged, so the user's next
// commit keeps them and the next Merge completes. (Moving the branch first
// would leave them staged for deletion.) SyncCheckedOut repairs a worktree
// left behind its branch by a crash of an older rgit.
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
	if err := s.CheckMergeTarget(o.Target); err != nil {
		return "", err
	}
	if shallow, err := s.IsShallow(); err != nil {
		return "", err
	} else if shallow {
		return "", fmt.Errorf("merge into %s: repository is a %w, so the merge base may be cut off: run git fetch --unshallow", o.Target, ErrShallow)
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
	lock := filepath.Join(s.commonDir, filepath.FromSlash(string(tgtRef))) + ".lock"
	if _, err := os.Lstat(lock); err == nil {
		// The user's branch: its lock is git's to clean up, or the user's.
		return "", fmt.Errorf("merge into %s: %s exists: a git command is running there, or was killed (then remove the file): %w",
			o.Target, lock, errRefChanged)
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
	roots, err := s.checkouts(tgtRef)
	if err != nil {
		return "", err
	}
	if tgt.IsZero() && len(roots) == 0 {
		return "", fmt.Errorf("merge into %s: %w", o.Target, ErrBranchNotFound)
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
	hook(pointMergeCommit)
	if err := guard(o.Guard); err != nil {
		return "", fmt.Errorf("merge into %s: %w", o.Target, err)
	}
	if _, err := os.Lstat(filepath.Join(s.commonDir, filepath.FromSlash(string(tgtRef))) + ".lock"); err == nil {
		// git holds the branch: wait before touching its worktree.
		return "", fmt.Errorf("merge into %s: %w", o.Target, errRefChanged)
	}
	for _, r := range roots {
		if err := s.applyCheckout(ctx, r, changes); err != nil {
			return "", fmt.Errorf("merge into %s: update worktree %s: %w", o.Target, r, err)
		}
	}
	if err := s.moveUserRef(ctx, tgtRef, h, tgt); err != nil {
		return "", err
	}
	hook(pointMergeRef)
	return h.String(), nil
}

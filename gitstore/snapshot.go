package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Mount pairs a directory on disk with the subtree of the commit that holds it.
type Mount struct {
	Dir  string // directory on disk
	Tree string // slash path inside the commit tree, e.g. ".research/x"
}

// SnapshotOptions says what Snapshot commits, where, and how it is described.
type SnapshotOptions struct {
	Branch     string    // short name, e.g. "research/x" (stored as refs/heads/research/x)
	Base       string    // commit the branch starts from if it does not exist yet; "" = a root commit
	Mounts     []Mount   // each mount's Tree subtree is replaced by Dir's contents (missing Dir = subtree removed)
	Exclude    []string  // path.Match patterns over tree paths; matching paths are never committed
	Message    string    // summary line, blank line, body; trailers are appended by Snapshot
	Trailers   []Trailer // appended as git trailers
	AllowEmpty bool      // commit even when the tree is unchanged
	When       time.Time // author and committer time; zero = now
	// Sealed are path.Match patterns of directories that one writer owns
	// (a session's source records), and Wrote the files it wrote or
	// rewrote there since its last snapshot. Of a sealed directory only
	// the files it did not hold at the last snapshot, and those in Wrote,
	// are stated and read; the others keep the hash they had. A change
	// the writer does not name, such as another process rewriting a file
	// in place, is therefore not committed.
	Sealed []string
	Wrote  []string
	// Guard, when set, runs under the store lock right before the branch
	// moves; if it fails nothing moves and Snapshot returns its error
	// wrapped in ErrFenced. WithLock says how it fences a displaced run.
	Guard func() error
	// ExtraParents are commits (hashes or branch names) recorded as further
	// parents after the branch head, making the commit a merge: an octopus
	// merge when there are several. The tree is still the mounts spliced
	// into the head's tree, so the caller decides what the merge holds.
	ExtraParents []string
}

// casAttempts bounds the rebuild-and-retry loop when a ref moves under us
// (possible only through a writer that ignores our lock, such as git itself).
const casAttempts = 5

// Snapshot commits the mounts onto the branch and returns the new head. The
// tree is the parent's tree with each mount's subtree replaced, so everything
// outside the mounts is carried over. When the tree is unchanged and
// !AllowEmpty it returns the current head (or Base, for a branch not created
// yet) with ErrNothingToCommit. The user's index, HEAD and worktree are never
// touched. A branch that cannot be created (ErrRefNameConflict) is refused
// before any object is written.
func (s *Store) Snapshot(ctx context.Context, o SnapshotOptions) (hash string, err error) {
	ref, err := branchRef(o.Branch)
	if err != nil {
		return "", err
	}
	if err := checkPatterns(append(slices.Clone(o.Exclude), o.Sealed...)); err != nil {
		return "", err
	}
	if err := s.refConflict(ref); err != nil {
		return "", err
	}
	base, err := s.optionalCommit(o.Base)
	if err != nil {
		return "", fmt.Errorf("snapshot base: %w", err)
	}
	extra, err := s.extraParents(o.ExtraParents)
	if err != nil {
		return "", err
	}
	msg, err := formatMessage(o.Message, o.Trailers)
	if err != nil {
		return "", err
	}
	if err := s.refreshPacks(); err != nil {
		return "", err
	}
	// Blobs and subtrees do not depend on the parent: write them before
	// taking the lock so it is held only for the splice, commit and ref move.
	subtrees, err := s.writeMounts(ctx, o.Mounts, o.Exclude, o.Sealed, o.Wrote)
	if err != nil {
		return "", err
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	hook(pointSnapshotObjects)
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
	for range casAttempts {
		head, err := s.readRef(ref)
		if err != nil {
			return "", err
		}
		parent := head
		if parent.IsZero() {
			parent = base
		}
		parentTree, err := s.commitTree(parent)
		if err != nil {
			return "", err
		}
		root, err := s.spliceTree(parentTree, subtrees)
		if err != nil {
			return "", err
		}
		if root.IsZero() {
			if root, err = s.writeTree(nil); err != nil {
				return "", err
			}
		}
		if root == parentTree && !parent.IsZero() && !o.AllowEmpty && len(extra) == 0 {
			return parent.String(), ErrNothingToCommit
		}
		c := &object.Commit{Author: sig.author, Committer: sig.committer, Message: msg, TreeHash: root}
		if !parent.IsZero() {
			c.ParentHashes = []plumbing.Hash{parent}
		}
		c.ParentHashes = appendParents(c.ParentHashes, extra)
		h, err := s.writeCommit(c)
		if err != nil {
			return "", err
		}
		hook(pointSnapshotCommit)
		if err := guard(o.Guard); err != nil {
			return "", fmt.Errorf("snapshot %s: %w", o.Branch, err)
		}
		err = s.casRef(ref, h, head, "rgit: "+firstLine(msg))
		if errors.Is(err, errRefChanged) {
			continue
		}
		if err != nil {
			return "", err
		}
		return h.String(), nil
	}
	return "", fmt.Errorf("snapshot %s: %w after %d attempts", o.Branch, errRefChanged, casAttempts)
}

// writeMounts stores each mount directory as a tree and returns the edits to
// splice into the parent's tree. A missing directory gives a nil entry: its
// subtree is removed.
func (s *Store) writeMounts(ctx context.Context, mounts []Mount, exclude, sealed, wrote []string) (map[string]*object.TreeEntry, error) {
	mounts = append([]Mount(nil), mounts...)
	if err := checkMounts(mounts); err != nil {
		return nil, err
	}
	w := newWalk(exclude, sealed, wrote, time.Now())
	out := make(map[string]*object.TreeEntry, len(mounts))
	for _, m := range mounts {
		out[m.Tree] = nil
		fi, err := os.Stat(m.Dir)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("snapshot %s: %w", m.Dir, err)
		}
		if !fi.IsDir() {
			return nil, fmt.Errorf("snapshot %s: not a directory", m.Dir)
		}
		if w.exclude.excludes(m.Tree) {
			continue
		}
		s.loadStatCache(m.Dir)
		h, err := s.writeDir(ctx, m.Dir, m.Tree, w)
		if err != nil {
			return nil, err
		}
		out[m.Tree] = &object.TreeEntry{Mode: filemode.Dir, Hash: h}
	}
	return out, nil
}

// extraParents resolves SnapshotOptions.ExtraParents to commits, before
// anything is written: a missing one is ErrNotFound.
func (s *Store) extraParents(revs []string) ([]plumbing.Hash, error) {
	out := make([]plumbing.Hash, 0, len(revs))
	for _, rev := range revs {
		h, err := s.resolve(rev)
		if err != nil {
			return nil, fmt.Errorf("snapshot parent %s: %w", rev, err)
		}
		out = append(out, h)
	}
	return out, nil
}

// appendParents adds extra to parents, skipping repeats: git fsck --strict
// refuses a commit that names one parent twice.
func appendParents(parents, extra []plumbing.Hash) []plumbing.Hash {
	for _, h := range extra {
		if !slices.Contains(parents, h) {
			parents = append(parents, h)
		}
	}
	return parents
}

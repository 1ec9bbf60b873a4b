package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
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
}

// casAttempts bounds the rebuild-and-retry loop when a ref moves under us
// (possible only through a writer that ignores our lock, such as git itself).
const casAttempts = 5

// Snapshot commits the mounts onto the branch and returns the new head. The
// tree is the parent's tree with each mount's subtree replaced, so everything
// outside the mounts is carried over. When the tree is unchanged and
// !AllowEmpty it returns the current head (or Base, for a branch not created
// yet) with ErrNothingToCommit. The user's index, HEAD and worktree are never
// touched.
func (s *Store) Snapshot(ctx context.Context, o SnapshotOptions) (hash string, err error) {
	ref, err := branchRef(o.Branch)
	if err != nil {
		return "", err
	}
	if err := checkPatterns(o.Exclude); err != nil {
		return "", err
	}
	base, err := s.optionalCommit(o.Base)
	if err != nil {
		return "", fmt.Errorf("snapshot base: %w", err)
	}
	msg, err := formatMessage(o.Message, o.Trailers)
	if err != nil {
		return "", err
	}
	// Blobs and subtrees do not depend on the parent: write them before
	// taking the lock so it is held only for the splice, commit and ref move.
	subtrees, err := s.writeMounts(o.Mounts, o.Exclude)
	if err != nil {
		return "", err
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	sig := s.signatures(o.When)

	unlock, err := lockRepo(s.commonDir)
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
		root := parentTree
		for i, m := range o.Mounts {
			if root, err = s.spliceTree(root, splitPath(m.Tree), subtrees[i]); err != nil {
				return "", err
			}
		}
		if root.IsZero() {
			if root, err = s.writeTree(nil); err != nil {
				return "", err
			}
		}
		if root == parentTree && !parent.IsZero() && !o.AllowEmpty {
			return parent.String(), ErrNothingToCommit
		}
		c := &object.Commit{Author: sig.author, Committer: sig.committer, Message: msg, TreeHash: root}
		if !parent.IsZero() {
			c.ParentHashes = []plumbing.Hash{parent}
		}
		h, err := s.writeCommit(c)
		if err != nil {
			return "", err
		}
		err = s.casRef(ref, h, head)
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

// writeMounts stores each mount directory as a tree. A missing directory
// gives a nil entry: its subtree is removed.
func (s *Store) writeMounts(mounts []Mount, exclude []string) ([]*object.TreeEntry, error) {
	mounts = append([]Mount(nil), mounts...)
	if err := checkMounts(mounts); err != nil {
		return nil, err
	}
	now := time.Now()
	out := make([]*object.TreeEntry, len(mounts))
	for i, m := range mounts {
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
		tp := path.Clean(m.Tree)
		if excluded(tp, exclude) {
			continue
		}
		h, err := s.writeDir(m.Dir, tp, exclude, now)
		if err != nil {
			return nil, err
		}
		out[i] = &object.TreeEntry{Name: path.Base(tp), Mode: filemode.Dir, Hash: h}
	}
	return out, nil
}

// spliceTree returns root with the entry at parts replaced by e (removed when
// e is nil). Only the trees on that path are rewritten; every other subtree
// keeps its hash. A tree left empty by a removal is removed too (ZeroHash).
func (s *Store) spliceTree(root plumbing.Hash, parts []string, e *object.TreeEntry) (plumbing.Hash, error) {
	t, err := s.readTree(root)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	name := parts[0]
	entries := make([]object.TreeEntry, 0, len(t.Entries)+1)
	var old *object.TreeEntry
	for i := range t.Entries {
		if t.Entries[i].Name == name {
			old = &t.Entries[i]
			continue
		}
		entries = append(entries, t.Entries[i])
	}
	next := e
	if len(parts) > 1 {
		child := plumbing.ZeroHash
		if old != nil && old.Mode == filemode.Dir {
			child = old.Hash
		}
		h, err := s.spliceTree(child, parts[1:], e)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		next = nil
		if !h.IsZero() {
			next = &object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h}
		}
	}
	if sameEntry(old, next) {
		return root, nil
	}
	if next != nil {
		entries = append(entries, *next)
	}
	if len(entries) == 0 {
		return plumbing.ZeroHash, nil
	}
	return s.writeTree(entries)
}

// sameEntry reports whether two optional entries are equal in mode and hash.
func sameEntry(a, b *object.TreeEntry) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Mode == b.Mode && a.Hash == b.Hash
}

// checkMounts rejects tree paths that are empty, absolute, contain "." or
// "..", or overlap another mount, and makes every Dir absolute.
func checkMounts(mounts []Mount) error {
	for i := range mounts {
		if err := checkTreePath(mounts[i].Tree); err != nil {
			return err
		}
		abs, err := filepath.Abs(mounts[i].Dir)
		if err != nil {
			return fmt.Errorf("mount %s: %w", mounts[i].Dir, err)
		}
		mounts[i].Dir = abs
		for _, o := range mounts[:i] {
			a, b := o.Tree+"/", mounts[i].Tree+"/"
			if strings.HasPrefix(a, b) || strings.HasPrefix(b, a) {
				return fmt.Errorf("mounts %q and %q overlap", o.Tree, mounts[i].Tree)
			}
		}
	}
	return nil
}

// checkTreePath accepts a clean, relative slash path with no empty, "." or
// ".." elements.
func checkTreePath(p string) error {
	if p == "" || strings.HasPrefix(p, "/") || path.Clean(p) != p || strings.ContainsRune(p, '\\') {
		return fmt.Errorf("invalid tree path %q", p)
	}
	for _, part := range strings.Split(p, "/") {
		if part == "." || part == ".." || strings.EqualFold(part, ".git") {
			return fmt.Errorf("invalid tree path %q", p)
		}
	}
	return nil
}

// checkPatterns rejects malformed path.Match patterns.
func checkPatterns(patterns []string) error {
	for _, p := range patterns {
		if _, err := path.Match(p, ""); err != nil {
			return fmt.Errorf("exclude pattern %q: %w", p, err)
		}
	}
	return nil
}

// splitPath splits a clean slash path into its elements.
func splitPath(p string) []string {
	return strings.Split(strings.Trim(p, "/"), "/")
}

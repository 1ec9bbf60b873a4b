package gitstore

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// spliceTree returns root with the entry at each slash path of edits
// replaced (removed when nil). Only the trees on those paths are rewritten,
// each once; every other subtree keeps its hash. A tree left empty by a
// removal is removed too (ZeroHash).
func (s *Store) spliceTree(root plumbing.Hash, edits map[string]*object.TreeEntry) (plumbing.Hash, error) {
	t, err := s.readTree(root)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	direct := map[string]*object.TreeEntry{}
	nested := map[string]map[string]*object.TreeEntry{}
	for p, e := range edits {
		name, rest, deeper := strings.Cut(p, "/")
		if !deeper {
			direct[name] = e
			continue
		}
		if nested[name] == nil {
			nested[name] = map[string]*object.TreeEntry{}
		}
		nested[name][rest] = e
	}
	old := map[string]*object.TreeEntry{}
	entries := make([]object.TreeEntry, 0, len(t.Entries)+len(edits))
	for i, e := range t.Entries {
		_, d := direct[e.Name]
		_, n := nested[e.Name]
		if d || n {
			old[e.Name] = &t.Entries[i]
			continue
		}
		entries = append(entries, e)
	}
	changed := false
	add := func(name string, next *object.TreeEntry) {
		changed = changed || !sameEntry(old[name], next)
		if next != nil {
			next.Name = name
			entries = append(entries, *next)
		}
	}
	for name, e := range direct {
		if e != nil {
			e = &object.TreeEntry{Mode: e.Mode, Hash: e.Hash}
		}
		add(name, e)
	}
	for name, sub := range nested {
		child := plumbing.ZeroHash
		if o := old[name]; o != nil && o.Mode == filemode.Dir {
			child = o.Hash
		}
		h, err := s.spliceTree(child, sub)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		var next *object.TreeEntry
		if !h.IsZero() {
			next = &object.TreeEntry{Mode: filemode.Dir, Hash: h}
		}
		add(name, next)
	}
	if !changed {
		return root, nil
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

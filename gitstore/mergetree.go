package gitstore

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// mergeBase returns the best common ancestor of target and source (ZeroHash
// when there is none or target is unborn) and whether source is already
// contained in target.
func (s *Store) mergeBase(tgt, src plumbing.Hash) (base plumbing.Hash, merged bool, err error) {
	if tgt.IsZero() {
		return plumbing.ZeroHash, false, nil
	}
	tc, err := s.readCommit(tgt)
	if err != nil {
		return base, false, err
	}
	sc, err := s.readCommit(src)
	if err != nil {
		return base, false, err
	}
	bases, err := tc.MergeBase(sc)
	if err != nil {
		return base, false, fmt.Errorf("merge base of %s and %s: %w", tgt, src, err)
	}
	if len(bases) == 0 {
		return plumbing.ZeroHash, false, nil
	}
	return bases[0].Hash, bases[0].Hash == src, nil
}

// takePaths builds the merged tree: tgtTree with each path replaced by the
// source's entry. It refuses with ErrConflict when the target's entry differs
// from both the merge base's and the source's, and lists the file changes.
func (s *Store) takePaths(o MergeOptions, srcTree, tgtTree, baseTree plumbing.Hash) (plumbing.Hash, []fileChange, error) {
	root := tgtTree
	var changes []fileChange
	for _, p := range o.Paths {
		se, ok, err := s.entryAt(srcTree, p)
		if err != nil {
			return root, nil, err
		}
		if !ok {
			return root, nil, fmt.Errorf("merge: %s not in %s: %w", p, o.Source, ErrNotFound)
		}
		te, tok, err := s.entryAt(tgtTree, p)
		if err != nil {
			return root, nil, err
		}
		be, bok, err := s.entryAt(baseTree, p)
		if err != nil {
			return root, nil, err
		}
		unchanged := tok == bok && (!tok || sameEntry(&te, &be))
		if !unchanged && !(tok && sameEntry(&te, &se)) {
			return root, nil, fmt.Errorf("%s changed on %s since the session started: %w", p, o.Target, ErrConflict)
		}
		if root, err = s.spliceTree(root, map[string]*object.TreeEntry{p: &se}); err != nil {
			return root, nil, err
		}
		old, err := s.filesOf(te, tok, p)
		if err != nil {
			return root, nil, err
		}
		cur, err := s.filesOf(se, true, p)
		if err != nil {
			return root, nil, err
		}
		for _, f := range sortedKeys(unionKeys(old, cur)) {
			if old[f] != cur[f] {
				changes = append(changes, fileChange{path: f, old: old[f], new: cur[f]})
			}
		}
	}
	return root, changes, nil
}

// filesOf lists the files an entry at slash path p stands for: itself, or
// everything below it when it is a tree.
func (s *Store) filesOf(e object.TreeEntry, ok bool, p string) (map[string]wanted, error) {
	files := map[string]wanted{}
	if !ok {
		return files, nil
	}
	if e.Mode != filemode.Dir {
		files[p] = wanted{e.Mode, e.Hash}
		return files, nil
	}
	err := s.walkTree(e.Hash, p, func(fp string, m filemode.FileMode, h plumbing.Hash) error {
		if m != filemode.Submodule {
			files[fp] = wanted{m, h}
		}
		return nil
	})
	return files, err
}

// unionKeys returns a set of the keys of both maps.
func unionKeys(a, b map[string]wanted) map[string]bool {
	u := make(map[string]bool, len(a)+len(b))
	for k := range a {
		u[k] = true
	}
	for k := range b {
		u[k] = true
	}
	return u
}

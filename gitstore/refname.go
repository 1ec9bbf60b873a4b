package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing"
)

// CheckBranchName reports, reading only, whether branch exists or can be
// created: ErrRefNameConflict when another ref is in its way (a branch
// "research" blocks "research/x", and "research/x/y" blocks "research/x"),
// the invalid-name error of git's rules otherwise. Callers run it before
// their first write, so bad input is refused with nothing written.
func (s *Store) CheckBranchName(branch string) error {
	name, err := branchRef(branch)
	if err != nil {
		return err
	}
	return s.refConflict(name)
}

// CheckMergeTarget reports, reading only, whether Merge can merge into
// branch: it must exist, or be the unborn branch a worktree's HEAD names (a
// new repository's first branch). Otherwise it returns ErrBranchNotFound,
// so a mistyped --merge-into is refused instead of creating a branch.
func (s *Store) CheckMergeTarget(branch string) error {
	name, err := branchRef(branch)
	if err != nil {
		return err
	}
	h, err := s.readRef(name)
	if err != nil || !h.IsZero() {
		return err
	}
	roots, err := s.checkouts(name)
	if err != nil {
		return err
	}
	if len(roots) == 0 {
		return fmt.Errorf("merge into %s: %w", branch, ErrBranchNotFound)
	}
	return nil
}

// refConflict finds a ref that is a folder of name or lies inside it, on
// disk or in packed-refs; nil when there is none or name itself exists.
func (s *Store) refConflict(name plumbing.ReferenceName) error {
	path := filepath.Join(s.commonDir, filepath.FromSlash(string(name)))
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
		return nil
	}
	conflict := func(other string) error {
		return fmt.Errorf("branch %s: %w with %s: a ref cannot be both a file and a folder",
			name.Short(), ErrRefNameConflict, other)
	}
	parts := strings.Split(string(name), "/")
	for i := 3; i < len(parts); i++ { // refs/heads/<first>... : folders below refs/heads
		prefix := strings.Join(parts[:i], "/")
		fi, err := os.Lstat(filepath.Join(s.commonDir, filepath.FromSlash(prefix)))
		if err == nil && !fi.IsDir() {
			return conflict(prefix)
		}
	}
	if inner, err := firstFile(s.commonDir, path); err != nil {
		return err
	} else if inner != "" {
		return conflict(inner)
	}
	packed, err := s.packedRefs()
	if err != nil {
		return err
	}
	if !packed[name].IsZero() {
		return nil
	}
	for ref := range packed {
		if strings.HasPrefix(string(name), string(ref)+"/") || strings.HasPrefix(string(ref), string(name)+"/") {
			return conflict(string(ref))
		}
	}
	return nil
}

// firstFile returns the path (slash form, relative to common) of a ref
// file below dir, ignoring leftover lock files and empty folders (git
// removes those when it creates the ref); "" when there is none.
func firstFile(common, dir string) (string, error) {
	found := ""
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
				return nil
			}
			return err
		}
		// dir itself is a file when the ref was created since the caller
		// looked: that is the ref, not one in its way.
		if !d.IsDir() && p != dir && !strings.HasSuffix(p, ".lock") {
			found = p
			return filepath.SkipAll
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("check ref name: %w", err)
	}
	if found == "" {
		return "", nil
	}
	rel, err := filepath.Rel(common, found)
	return filepath.ToSlash(rel), err
}

// makeRefDir creates the folder of a ref file, and clears a ref path left
// as empty folders, as git does; a ref in the way is ErrRefNameConflict.
func (s *Store) makeRefDir(name plumbing.ReferenceName, path string) error {
	if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
		removeEmptyDirs(path)
	}
	err := os.MkdirAll(filepath.Dir(path), 0o755)
	if errors.Is(err, syscall.ENOTDIR) || errors.Is(err, fs.ErrExist) {
		if cerr := s.refConflict(name); cerr != nil {
			return cerr
		}
	}
	if err != nil {
		return fmt.Errorf("update ref %s: %w", name, err)
	}
	if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
		return s.refConflict(name)
	}
	return nil
}

// removeEmptyDirs removes dir and the folders below it when none holds a
// file; it stops at the first that is not empty.
func removeEmptyDirs(dir string) {
	des, _ := os.ReadDir(dir)
	for _, d := range des {
		if d.IsDir() {
			removeEmptyDirs(filepath.Join(dir, d.Name()))
		}
	}
	os.Remove(dir)
}

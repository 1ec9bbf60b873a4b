package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Discard removes a copy on disk of what rev holds: each file under
// mount.Dir whose content is exactly the file at the same place below
// mount.Tree at rev is deleted, then every folder left empty, mount.Dir and
// its parents included, up to the worktree root. Files rev lacks or holds
// otherwise are kept and returned (slash paths relative to the worktree
// root when inside it). A caller that wrote a session's files into this
// worktree uses it once they are safely committed and merged elsewhere, so
// nothing is left behind where the merge did not happen.
func (s *Store) Discard(rev string, mounts []Mount) (kept []string, err error) {
	h, err := s.resolve(rev)
	if err != nil {
		return nil, err
	}
	mounts = append([]Mount(nil), mounts...)
	if err := checkMounts(mounts); err != nil {
		return nil, err
	}
	root, err := s.commitTree(h)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	for _, m := range mounts {
		files, err := s.filesAt(root, m.Tree)
		if err != nil {
			return nil, err
		}
		err = filepath.WalkDir(m.Dir, func(p string, d fs.DirEntry, err error) error {
			if errors.Is(err, os.ErrNotExist) {
				return nil
			}
			if err != nil || d.IsDir() {
				return err
			}
			rel, err := filepath.Rel(m.Dir, p)
			if err != nil {
				return err
			}
			if w, ok := files[m.Tree+"/"+filepath.ToSlash(rel)]; ok && s.sameOnDisk(p, w, now) {
				if err := os.Remove(p); err != nil {
					return fmt.Errorf("discard %s: %w", p, err)
				}
				return nil
			}
			kept = append(kept, s.display(p))
			return nil
		})
		if err != nil {
			return kept, err
		}
		s.removeEmptyUp(m.Dir)
	}
	return kept, nil
}

// sameOnDisk reports whether the file at p is the wanted blob.
func (s *Store) sameOnDisk(p string, w wanted, now time.Time) bool {
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	if w.mode == filemode.Symlink {
		target, err := os.Readlink(p)
		return err == nil && plumbing.ComputeHash(plumbing.BlobObject, []byte(filepath.ToSlash(target))) == w.hash
	}
	if !fi.Mode().IsRegular() {
		return false
	}
	h, err := s.hashFile(p, fi, now, false)
	return err == nil && h == w.hash
}

// removeEmptyUp removes dir's empty folders, then dir and each parent
// that is left empty, stopping at the worktree root.
func (s *Store) removeEmptyUp(dir string) {
	removeEmptyDirs(dir)
	for d := filepath.Dir(dir); strings.HasPrefix(d, s.root+string(filepath.Separator)); d = filepath.Dir(d) {
		if os.Remove(d) != nil {
			return
		}
	}
}

// display names a path for the user: relative to the worktree root, in
// slash form, when it is inside it.
func (s *Store) display(p string) string {
	if rel, err := filepath.Rel(s.root, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return p
}

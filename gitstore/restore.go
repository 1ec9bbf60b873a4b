package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// wanted is one path a restore must leave on disk.
type wanted struct {
	mode filemode.FileMode
	hash plumbing.Hash
}

// Restore writes each mount's subtree at the branch head into mount.Dir and
// removes whatever the tree lacks, inside mount.Dir only. Paths matching
// exclude are neither written nor removed. Exec bits and symlinks are kept;
// files already matching the tree are left alone. A branch without the
// subtree leaves mount.Dir empty (but for excluded paths).
func (s *Store) Restore(branch string, mounts []Mount, exclude []string) error {
	h, err := s.resolve(branch)
	if err != nil {
		return err
	}
	if err := checkPatterns(exclude); err != nil {
		return err
	}
	mounts = append([]Mount(nil), mounts...)
	if err := checkMounts(mounts); err != nil {
		return err
	}
	root, err := s.commitTree(h)
	if err != nil {
		return err
	}
	s.forgetListings()
	for _, m := range mounts {
		if err := s.restoreMount(root, m, newPathSet(exclude)); err != nil {
			return err
		}
	}
	return nil
}

// restoreMount makes m.Dir match the subtree at m.Tree.
func (s *Store) restoreMount(root plumbing.Hash, m Mount, exclude pathSet) error {
	want := map[string]wanted{} // keyed by path relative to m.Dir, slash form
	e, ok, err := s.entryAt(root, m.Tree)
	if err != nil {
		return err
	}
	if ok && e.Mode == filemode.Dir {
		err = s.walkAll(e.Hash, "", func(rel string, mode filemode.FileMode, h plumbing.Hash) error {
			if exclude.excludes(path.Join(m.Tree, rel)) {
				return fs.SkipDir // an excluded directory is skipped whole, as Snapshot does
			}
			want[rel] = wanted{mode, h}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if err := os.MkdirAll(m.Dir, 0o755); err != nil {
		return fmt.Errorf("restore %s: %w", m.Dir, err)
	}
	if err := s.removeExtra(m, want, exclude); err != nil {
		return err
	}
	return s.writeWanted(m.Dir, want)
}

// walkAll is walkTree that also reports directories (so empty ones survive),
// with paths relative to the walked tree; fn returns fs.SkipDir to skip an
// entry and everything below it.
func (s *Store) walkAll(h plumbing.Hash, prefix string, fn func(rel string, m filemode.FileMode, h plumbing.Hash) error) error {
	t, err := s.readTree(h)
	if err != nil {
		return err
	}
	for _, e := range t.Entries {
		p := path.Join(prefix, e.Name)
		if e.Mode == filemode.Submodule || dotGit(p) {
			continue
		}
		err := fn(p, e.Mode, e.Hash)
		if errors.Is(err, fs.SkipDir) {
			continue
		}
		if err != nil {
			return err
		}
		if e.Mode == filemode.Dir {
			if err := s.walkAll(e.Hash, p, fn); err != nil {
				return err
			}
		}
	}
	return nil
}

// removeExtra deletes what is on disk under m.Dir but not wanted, or wanted
// with another type. It never follows a symlink.
func (s *Store) removeExtra(m Mount, want map[string]wanted, exclude pathSet) error {
	return filepath.WalkDir(m.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("restore %s: %w", p, err)
		}
		if p == m.Dir {
			return nil
		}
		rel, err := filepath.Rel(m.Dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if exclude.excludes(path.Join(m.Tree, rel)) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		w, ok := want[rel]
		if ok && sameType(w.mode, d.Type()) {
			return nil
		}
		if err := os.RemoveAll(p); err != nil {
			return fmt.Errorf("restore: remove %s: %w", p, err)
		}
		if d.IsDir() {
			return filepath.SkipDir
		}
		return nil
	})
}

// sameType reports whether a disk entry has the kind of a tree entry.
func sameType(m filemode.FileMode, t fs.FileMode) bool {
	switch m {
	case filemode.Dir:
		return t.IsDir()
	case filemode.Symlink:
		return t&fs.ModeSymlink != 0
	default:
		return t.IsRegular()
	}
}

// writeWanted creates every wanted directory, file and symlink that is not
// already on disk as wanted. Parents come before children because shorter
// paths sort first within one parent and the walk order put them there.
func (s *Store) writeWanted(dir string, want map[string]wanted) error {
	now := time.Now()
	for _, rel := range sortedKeys(want) {
		w := want[rel]
		p := filepath.Join(dir, filepath.FromSlash(rel))
		switch w.mode {
		case filemode.Dir:
			if err := os.Mkdir(p, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("restore %s: %w", p, err)
			}
		case filemode.Symlink:
			target, err := s.readBlob(w.hash)
			if err != nil {
				return err
			}
			if cur, err := os.Readlink(p); err == nil && cur == filepath.FromSlash(string(target)) {
				continue
			}
			os.Remove(p)
			if err := os.Symlink(filepath.FromSlash(string(target)), p); err != nil {
				return fmt.Errorf("restore %s: %w", p, err)
			}
		default:
			if err := s.restoreFile(p, w, now); err != nil {
				return err
			}
		}
	}
	return nil
}

// restoreFile writes one regular file through a temporary file and a rename,
// unless the file on disk already has the wanted content and exec bit.
func (s *Store) restoreFile(p string, w wanted, now time.Time) error {
	perm := fs.FileMode(0o644)
	if w.mode == filemode.Executable {
		perm = 0o755
	}
	if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() && fileMode(fi.Mode()) == w.mode {
		if h, err := s.hashFile(p, fi, now, false); err == nil && h == w.hash {
			return nil
		}
	}
	data, err := s.readBlob(w.hash)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".rgit-restore-*")
	if err != nil {
		return fmt.Errorf("restore %s: %w", p, err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp.Name(), perm)
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), p)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("restore %s: %w", p, werr)
	}
	return nil
}

package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
)

// packWindow is the delta search window, git's default.
const packWindow = 10

// Repack moves the loose objects go-git wrote into a pack, as `git repack -d`
// does, so a long session's .git stays near the size `git gc` would give it.
// With git installed it runs `git repack -d` and then `git gc --auto`, which
// merges packs once there are many; without git it packs the loose objects
// itself. Unreachable objects are kept (they may be a concurrent writer's).
func (s *Store) Repack(ctx context.Context) (err error) {
	unlock, err := s.lock()
	if err != nil {
		return err
	}
	defer func() {
		if uerr := unlock(); err == nil && uerr != nil {
			err = uerr
		}
	}()
	defer func() { s.packs = packSet{}; s.reindex() }()
	if gitPath() != "" {
		if _, err := runGit(ctx, s.root, nil, "repack", "-d", "-q"); err != nil {
			return err
		}
		_, err := runGit(ctx, s.root, nil, "gc", "--auto", "--quiet")
		return err
	}
	return s.packLoose(ctx)
}

// LooseObjects counts the loose objects in the object directory, the
// measure git's own gc.auto uses, so a caller can leave a few hundred
// objects loose rather than spend seconds on every small session's repack.
func (s *Store) LooseObjects() (int, error) {
	n := 0
	for i := range 256 {
		f, err := os.Open(filepath.Join(s.commonDir, "objects", fmt.Sprintf("%02x", i)))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return n, fmt.Errorf("count loose objects: %w", err)
		}
		names, err := f.Readdirnames(-1)
		f.Close()
		if err != nil {
			return n, fmt.Errorf("count loose objects: %w", err)
		}
		for _, name := range names {
			if len(name) == 38 && !strings.HasPrefix(name, "tmp_") {
				n++
			}
		}
	}
	return n, nil
}

// packLoose writes every loose object into one new pack, then deletes them.
func (s *Store) packLoose(ctx context.Context) error {
	var loose []plumbing.Hash
	err := s.st.ForEachObjectHash(func(h plumbing.Hash) error {
		loose = append(loose, h)
		return ctx.Err()
	})
	if err != nil || len(loose) == 0 {
		return err
	}
	w, err := s.st.PackfileWriter()
	if err != nil {
		return fmt.Errorf("repack: %w", err)
	}
	if _, err := packfile.NewEncoder(w, s.st, false).Encode(loose, packWindow); err != nil {
		w.Close()
		return fmt.Errorf("repack: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("repack: %w", err)
	}
	s.reindex()
	for _, h := range loose {
		if err := s.st.DeleteLooseObject(h); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("repack: delete loose %s: %w", h, err)
		}
	}
	return nil
}

// reindex makes go-git reread the pack list after packs changed.
func (s *Store) reindex() {
	s.st.Reindex()
}

// AddExclude appends pattern to <common>/info/exclude unless a line already
// equals it, so git ignores the path in every worktree.
func (s *Store) AddExclude(pattern string) (err error) {
	if pattern == "" || strings.ContainsAny(pattern, "\r\n") {
		return fmt.Errorf("invalid exclude pattern %q", pattern)
	}
	p := filepath.Join(s.commonDir, "info", "exclude")
	// Look first, lock only to write, so a repository that already
	// excludes the pattern is left exactly as it was.
	if b, err := s.readExclude(p); err != nil || hasLine(b, pattern) {
		return err
	}
	unlock, err := s.lock()
	if err != nil {
		return err
	}
	defer func() {
		if uerr := unlock(); err == nil && uerr != nil {
			err = uerr
		}
	}()
	b, err := s.readExclude(p)
	if err != nil || hasLine(b, pattern) {
		return err
	}
	if len(b) > 0 && !bytes.HasSuffix(b, []byte("\n")) {
		b = append(b, '\n')
	}
	b = append(b, pattern+"\n"...)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(p), err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	return nil
}

// readExclude reads the exclude file; a missing one is empty.
func (s *Store) readExclude(p string) ([]byte, error) {
	b, err := os.ReadFile(p)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	return b, nil
}

// hasLine reports whether a line of b equals line.
func hasLine(b []byte, line string) bool {
	for _, l := range strings.Split(string(b), "\n") {
		if strings.TrimRight(l, "\r") == line {
			return true
		}
	}
	return false
}

package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// fileChange is one path a merge changes in a checked-out branch: from the
// target's version (old) to the merged version (new). A zero hash means absent.
type fileChange struct {
	path     string // slash path in the tree
	old, new wanted
}

// checkouts returns the roots of the worktrees whose HEAD is the ref: the
// main worktree and every linked one (<common>/worktrees/*).
func (s *Store) checkouts(ref plumbing.ReferenceName) ([]string, error) {
	var roots []string
	if headIs(filepath.Join(s.commonDir, "HEAD"), ref) {
		if root := s.mainWorktree(); root != "" {
			roots = append(roots, root)
		}
	}
	dirs, err := os.ReadDir(filepath.Join(s.commonDir, "worktrees"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("list worktrees: %w", err)
	}
	for _, d := range dirs {
		wt := filepath.Join(s.commonDir, "worktrees", d.Name())
		if !headIs(filepath.Join(wt, "HEAD"), ref) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(wt, "gitdir"))
		if err != nil {
			continue // a pruned worktree
		}
		root := filepath.Dir(strings.TrimSpace(string(b)))
		if _, err := os.Stat(root); err == nil { // else a worktree deleted without `git worktree prune`
			roots = append(roots, root)
		}
	}
	return roots, nil
}

// mainWorktree returns the root of the main worktree, "" for a bare
// repository: this Store's root when it was opened there, else core.worktree,
// else the directory holding a common dir named .git.
func (s *Store) mainWorktree() string {
	if s.gitDir == s.commonDir {
		return s.root
	}
	if wt := s.configOption(s.commonDir, "core", "worktree"); wt != "" {
		if !filepath.IsAbs(wt) {
			wt = filepath.Join(s.commonDir, wt)
		}
		return filepath.Clean(wt)
	}
	if bare := strings.ToLower(s.configOption(s.commonDir, "core", "bare")); bare == "true" || bare == "yes" || bare == "1" {
		return ""
	}
	if filepath.Base(s.commonDir) == ".git" {
		return filepath.Dir(s.commonDir)
	}
	return ""
}

// headIs reports whether the HEAD file is a symbolic ref to ref.
func headIs(headFile string, ref plumbing.ReferenceName) bool {
	b, err := os.ReadFile(headFile)
	return err == nil && strings.TrimSpace(string(b)) == "ref: "+string(ref)
}

// checkClean refuses (ErrConflict) when the user has uncommitted work on a
// changed path in the worktree at root: an index entry or a file that is
// neither the target's version nor the merged one.
func (s *Store) checkClean(ctx context.Context, root string, changes []fileChange) error {
	index := map[string]wanted{}
	if gitPath() != "" {
		args := []string{"ls-files", "-s", "-z", "--"}
		for _, c := range changes {
			args = append(args, ":(literal)"+c.path)
		}
		out, err := runGit(ctx, root, nil, args...)
		if err != nil {
			return err
		}
		for _, rec := range strings.Split(out, "\x00") {
			meta, p, ok := strings.Cut(rec, "\t")
			f := strings.Fields(meta)
			if !ok || len(f) != 3 {
				continue
			}
			m, _ := filemode.New(f[0])
			index[p] = wanted{m, plumbing.NewHash(f[1])}
		}
	}
	now := time.Now()
	for _, c := range changes {
		if gitPath() != "" {
			if in := index[c.path]; in != c.old && in != c.new {
				return fmt.Errorf("%s has staged changes in %s: %w", c.path, root, ErrConflict)
			}
		}
		disk := wanted{}
		p := filepath.Join(root, filepath.FromSlash(c.path))
		if fi, err := os.Lstat(p); err == nil {
			if !fi.Mode().IsRegular() {
				return fmt.Errorf("%s is not a regular file in %s: %w", c.path, root, ErrConflict)
			}
			h, err := s.hashFile(p, fi, now, false)
			if err != nil {
				return err
			}
			disk = wanted{fileMode(fi.Mode()), h}
		}
		if disk.hash != c.old.hash && disk.hash != c.new.hash {
			return fmt.Errorf("%s has uncommitted changes in %s: %w", c.path, root, ErrConflict)
		}
	}
	return nil
}

// applyCheckout writes the changed files into the worktree at root and
// records them in its index with `git update-index --index-info` (never
// go-git's index writer, which drops extensions and ignores index.lock).
// Every other path of the index and worktree is left as it was.
func (s *Store) applyCheckout(ctx context.Context, root string, changes []fileChange) error {
	var info strings.Builder
	for _, c := range changes {
		p := filepath.Join(root, filepath.FromSlash(c.path))
		if c.new.hash.IsZero() {
			if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("remove %s: %w", p, err)
			}
			fmt.Fprintf(&info, "0 %s\t%s\x00", plumbing.ZeroHash, c.path)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("create %s: %w", filepath.Dir(p), err)
		}
		if err := s.restoreFile(p, c.new, time.Now()); err != nil {
			return err
		}
		fmt.Fprintf(&info, "%o %s\t%s\x00", uint32(c.new.mode), c.new.hash, c.path)
	}
	if gitPath() == "" {
		return nil
	}
	// The user's own git may hold index.lock for a moment; wait for it as
	// git itself would have us do, rather than leave the index behind HEAD.
	var err error
	for range 40 {
		_, err = runGit(ctx, root, []byte(info.String()), "update-index", "-z", "--index-info")
		if err == nil || !strings.Contains(err.Error(), "index.lock") {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
	return err
}

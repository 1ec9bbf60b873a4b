package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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

// fileState is what a worktree holds at a path a merge changes.
type fileState struct {
	index wanted // the index entry; zero hash when there is none
	disk  wanted // the file on disk; zero hash when absent
	odd   bool   // on disk but not a regular file (a folder, a symlink)
}

// states reads the index entries (with `git ls-files -s`) and the files on
// disk of the worktree at root for the changed paths. Without git the index
// can be neither read nor written; it then reads as the version on disk,
// so only the disk decides.
func (s *Store) states(ctx context.Context, root string, changes []fileChange) ([]fileState, error) {
	index := map[string]wanted{}
	if gitPath() != "" && len(changes) > 0 {
		args := []string{"ls-files", "-s", "-z", "--"}
		for _, c := range changes {
			args = append(args, ":(literal)"+c.path)
		}
		out, err := runGit(ctx, root, nil, args...)
		if err != nil {
			return nil, err
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
	out := make([]fileState, len(changes))
	for i, c := range changes {
		st := &out[i]
		st.index = index[c.path]
		p := filepath.Join(root, filepath.FromSlash(c.path))
		fi, err := os.Lstat(p)
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("stat %s: %w", p, err)
		}
		if !fi.Mode().IsRegular() {
			st.odd = true
			continue
		}
		h, err := s.hashFile(p, fi, now, false)
		if err != nil {
			return nil, err
		}
		st.disk = wanted{fileMode(fi.Mode()), h}
	}
	if gitPath() == "" {
		for i, c := range changes {
			out[i].index = c.old
			if out[i].disk.hash == c.new.hash {
				out[i].index = c.new
			}
		}
	}
	return out, nil
}

// replaceable says whether rgit may write c.new over what the worktree
// holds: the index entry and the file on disk are each the old version (the
// one the merge replaces; absent counts) or already the new one. Anything
// else is the user's own work. On disk only content counts, since git
// may be told to ignore the exec bit (core.fileMode).
func replaceable(c fileChange, st fileState) error {
	if st.index != c.old && st.index != c.new {
		return fmt.Errorf("%s has staged changes", c.path)
	}
	if st.odd {
		return fmt.Errorf("%s is not a regular file", c.path)
	}
	if st.disk.hash != c.old.hash && st.disk.hash != c.new.hash {
		return fmt.Errorf("%s has uncommitted changes", c.path)
	}
	return nil
}

// done says whether the worktree already holds c.new at the path. A file
// the branch and the index both lack is untracked, the user's: git leaves
// those alone on checkout, and so does a repair.
func done(c fileChange, st fileState) bool {
	if c.new.hash.IsZero() && st.index.hash.IsZero() {
		return true
	}
	return st.index == c.new && st.disk.hash == c.new.hash && !st.odd
}

// checkClean refuses (ErrConflict) when the user has uncommitted work on a
// changed path in the worktree at root.
func (s *Store) checkClean(ctx context.Context, root string, changes []fileChange) error {
	states, err := s.states(ctx, root, changes)
	if err != nil {
		return err
	}
	for i, c := range changes {
		if err := replaceable(c, states[i]); err != nil {
			return fmt.Errorf("%w in %s: %w", err, root, ErrConflict)
		}
	}
	return nil
}

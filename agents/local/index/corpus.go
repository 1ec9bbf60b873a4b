package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Root is one corpus directory. Label is the prefix citations use for its
// files: the directory's base name, or more of its path when two roots
// share a base name, so "sync/mutex.go" opens as <parent of Dir>/sync/mutex.go.
type Root struct {
	Dir   string // absolute, clean
	Label string // slash-separated tail of Dir
}

// MakeRoots resolves corpus directories to roots with distinct labels.
func MakeRoots(dirs []string) ([]Root, error) {
	var roots []Root
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, fmt.Errorf("resolve corpus %s: %w", d, err)
		}
		st, err := os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("open corpus: %w", err)
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("open corpus %s: not a directory", abs)
		}
		if !slices.ContainsFunc(roots, func(r Root) bool { return r.Dir == abs }) {
			roots = append(roots, Root{Dir: abs})
		}
	}
	slices.SortFunc(roots, func(a, b Root) int { return strings.Compare(a.Dir, b.Dir) })
	for depth := 1; ; depth++ {
		seen := map[string]int{}
		for i := range roots {
			roots[i].Label = tail(roots[i].Dir, depth)
			seen[roots[i].Label]++
		}
		dup := false
		for _, n := range seen {
			dup = dup || n > 1
		}
		if !dup || depth > 64 {
			return roots, nil
		}
	}
}

// tail returns the last n elements of an absolute path, slash-separated.
func tail(dir string, n int) string {
	parts := strings.Split(filepath.ToSlash(dir), "/")
	parts = slices.DeleteFunc(parts, func(s string) bool { return s == "" })
	if len(parts) == 0 {
		return "root"
	}
	return strings.Join(parts[max(0, len(parts)-n):], "/")
}

// listFiles returns the slash-separated paths under root worth indexing. In
// a git work tree it asks git (tracked plus untracked-but-not-ignored
// files, so .gitignore holds); elsewhere it walks the directory, skipping
// hidden entries. exclude holds path prefixes to leave out.
func listFiles(ctx context.Context, root string, exclude []string) ([]string, error) {
	files, err := gitFiles(ctx, root)
	if err != nil {
		files, err = walkFiles(root)
		if err != nil {
			return nil, err
		}
	}
	files = slices.DeleteFunc(files, func(rel string) bool {
		if strings.HasPrefix(rel, ".research/") || strings.Contains(rel, "/.research/") {
			return true
		}
		for _, ex := range exclude {
			if strings.HasPrefix(rel, ex) {
				return true
			}
		}
		return false
	})
	slices.Sort(files)
	return files, nil
}

// skipUnder turns the skipped directories inside root into path prefixes
// relative to it.
func skipUnder(root string, skip []string) []string {
	var out []string
	for _, d := range skip {
		rel, err := filepath.Rel(root, d)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		out = append(out, filepath.ToSlash(rel)+"/")
	}
	return out
}

func gitFiles(ctx context.Context, root string) ([]string, error) {
	if !inWorkTree(root) {
		return nil, errors.New("list files with git: not in a work tree")
	}
	cmd := exec.CommandContext(ctx, "git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("list files with git: %w", err)
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	return slices.Compact(files), nil
}

// inWorkTree reports whether dir or a parent holds a .git entry: a stat per
// level is far cheaper than starting git for every corpus scan.
func inWorkTree(dir string) bool {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

func walkFiles(root string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // an unreadable subdirectory is skipped, not fatal
		}
		if p != root && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk corpus %s: %w", root, err)
	}
	return files, nil
}

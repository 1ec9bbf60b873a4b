package gitstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 12, point 5: repositories rgit cannot open must fail with one clear
// error, and those git itself works in (a sparse checkout) must work.
func TestOpenRepositoryFormats(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, repo string)
		want  error  // nil: Open works, and so do a snapshot and a merge
		says  string // in the error
	}{
		{"sparse checkout turns on worktreeConfig", func(t *testing.T, repo string) {
			writeFile(t, filepath.Join(repo, "docs", "a.md"), "a\n")
			git(t, repo, "add", ".")
			git(t, repo, "commit", "-q", "-m", "docs")
			git(t, repo, "sparse-checkout", "set", "--cone", "docs")
		}, nil, ""},
		{"worktreeConfig in a version 1 repository", func(t *testing.T, repo string) {
			git(t, repo, "config", "core.repositoryFormatVersion", "1")
			git(t, repo, "config", "extensions.worktreeConfig", "true")
			git(t, repo, "config", "--worktree", "user.name", "Worktree User")
		}, nil, ""},
		{"SHA-256 object names", func(t *testing.T, repo string) {
			os.RemoveAll(filepath.Join(repo, ".git"))
			git(t, repo, "init", "-q", "-b", "main", "--object-format=sha256")
		}, ErrUnsupportedRepo, "SHA-256"},
		{"reftable refs", func(t *testing.T, repo string) {
			git(t, repo, "config", "core.repositoryFormatVersion", "1")
			git(t, repo, "config", "extensions.refStorage", "reftable")
		}, ErrUnsupportedRepo, "reftable"},
		{"unknown extension in version 1", func(t *testing.T, repo string) {
			git(t, repo, "config", "core.repositoryFormatVersion", "1")
			git(t, repo, "config", "extensions.frobnicate", "true")
		}, ErrUnsupportedRepo, "extensions.frobnicate"},
		{"repository format version 2", func(t *testing.T, repo string) {
			git(t, repo, "config", "core.repositoryFormatVersion", "2")
		}, ErrUnsupportedRepo, "repositoryFormatVersion = 2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			repo := newRepo(t)
			tc.setup(t, repo)
			before := treeListing(t, filepath.Join(repo, ".git"))
			s, err := Open(repo)
			if tc.want != nil {
				if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.says) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("Open: %v; want one line with %q, matching %v", err, tc.says, tc.want)
				}
				if after := treeListing(t, filepath.Join(repo, ".git")); after != before {
					t.Errorf("a refused Open changed .git:\n%s\n->\n%s", before, after)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			main := strings.TrimSpace(git(t, repo, "rev-parse", "main"))
			session(t, s, main, "# R\n")
			if _, err := s.Merge(context.Background(), MergeOptions{Source: "research/x", Target: "main", Paths: []string{"reports/x/report.md"}}); err != nil {
				t.Fatal(err)
			}
			if st := git(t, repo, "status", "--porcelain"); st != "" {
				t.Errorf("git status after the merge:\n%s", st)
			}
			fsck(t, repo)
		})
	}
}

// The repository's own user.name, also from config.worktree, signs commits.
func TestSignatureFromWorktreeConfig(t *testing.T) {
	repo := newRepo(t)
	git(t, repo, "config", "extensions.worktreeConfig", "true")
	git(t, repo, "config", "--worktree", "user.name", "Worktree User")
	t.Setenv("GIT_AUTHOR_NAME", "")
	s := open(t, repo)
	session(t, s, "", "# R\n")
	if got := strings.TrimSpace(git(t, repo, "log", "-1", "--format=%an", "research/x")); got != "Worktree User" {
		t.Errorf("author %q, want the worktree's user.name", got)
	}
}

// Issue 12, point 5: a shallow clone is detected up front, and Merge
// refuses it before writing anything rather than failing with "object not
// found" halfway.
func TestShallowClone(t *testing.T) {
	up := newRepo(t)
	for _, c := range []string{"one", "two"} {
		writeFile(t, filepath.Join(up, c+".txt"), c+"\n")
		git(t, up, "add", ".")
		git(t, up, "commit", "-q", "-m", c)
	}
	clone := filepath.Join(t.TempDir(), "clone")
	git(t, up, "clone", "-q", "--depth", "1", "file://"+up, clone)
	s := open(t, clone)
	if shallow, err := s.IsShallow(); err != nil || !shallow {
		t.Fatalf("IsShallow = %v, %v; want true", shallow, err)
	}
	if shallow, err := open(t, up).IsShallow(); err != nil || shallow {
		t.Errorf("IsShallow of a full repository = %v, %v", shallow, err)
	}
	session(t, s, strings.TrimSpace(git(t, clone, "rev-parse", "main")), "# R\n")
	before, refs := userState(t, clone), git(t, clone, "show-ref")
	objects := treeListing(t, filepath.Join(clone, ".git", "objects"))
	_, err := s.Merge(context.Background(), MergeOptions{Source: "research/x", Target: "main", Paths: []string{"reports/x/report.md"}})
	if !errors.Is(err, ErrShallow) || !strings.Contains(err.Error(), "git fetch --unshallow") {
		t.Fatalf("Merge in a shallow clone: %v; want ErrShallow naming git fetch --unshallow", err)
	}
	if userState(t, clone) != before || git(t, clone, "show-ref") != refs || treeListing(t, filepath.Join(clone, ".git", "objects")) != objects {
		t.Error("a refused merge wrote something")
	}
}

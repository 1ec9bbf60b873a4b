package gitstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpen(t *testing.T) {
	repo := newRepo(t)
	sub := filepath.Join(repo, "a", "b")
	os.MkdirAll(sub, 0o755)
	linked := filepath.Join(t.TempDir(), "linked")
	git(t, repo, "worktree", "add", "-q", "-b", "side", linked)
	realRepo, _ := filepath.EvalSymlinks(repo)
	cases := []struct {
		name, dir, root, branch string
	}{
		{"root", repo, repo, "main"},
		{"subdirectory", sub, repo, "main"},
		{"linked worktree", linked, linked, "side"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t, tc.dir)
			if s.Root() != tc.root {
				t.Errorf("Root = %s, want %s", s.Root(), tc.root)
			}
			if c, _ := filepath.EvalSymlinks(s.CommonDir()); c != filepath.Join(realRepo, ".git") {
				t.Errorf("CommonDir = %s, want %s/.git", s.CommonDir(), realRepo)
			}
			if b, err := s.CurrentBranch(); err != nil || b != tc.branch {
				t.Errorf("CurrentBranch = %q, %v; want %q", b, err, tc.branch)
			}
			// Refs of the main .git are visible from every worktree.
			if h, err := s.Head("main"); err != nil || h != strings.TrimSpace(git(t, repo, "rev-parse", "main")) {
				t.Errorf("Head(main) = %s, %v", h, err)
			}
		})
	}
	if _, err := Open(t.TempDir()); !errors.Is(err, ErrNotRepository) {
		t.Errorf("Open outside a repository: %v, want ErrNotRepository", err)
	}
}

func TestOpenOrInit(t *testing.T) {
	cases := []struct {
		name, gitconfig, want string
	}{
		{"default branch from global config", "[init]\n\tdefaultBranch = trunk\n", "trunk"},
		{"no global config", "", "main"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
			if tc.gitconfig != "" {
				writeFile(t, filepath.Join(home, ".gitconfig"), tc.gitconfig)
			}
			dir := t.TempDir()
			s, created, err := OpenOrInit(dir)
			if err != nil || !created {
				t.Fatalf("OpenOrInit = %v, created %v", err, created)
			}
			if b, err := s.CurrentBranch(); err != nil || b != tc.want {
				t.Errorf("unborn branch %q, %v; want %q", b, err, tc.want)
			}
			if got := strings.TrimSpace(git(t, dir, "symbolic-ref", "HEAD")); got != "refs/heads/"+tc.want {
				t.Errorf("git sees HEAD %s", got)
			}
			s.Close()
			if _, created, err := OpenOrInit(dir); err != nil || created {
				t.Errorf("second OpenOrInit: created %v, %v", created, err)
			}
		})
	}
}

func TestRefsAndErrors(t *testing.T) {
	repo := newRepo(t)
	s := open(t, repo)
	ws := filepath.Join(repo, "ws")
	writeFile(t, filepath.Join(ws, "f.md"), "x")
	ctx := context.Background()
	for _, b := range []string{"research/b", "research/a", "research/a.m1", "other"} {
		if _, err := s.Snapshot(ctx, SnapshotOptions{Branch: b, Mounts: []Mount{{Dir: ws, Tree: "d/w"}}}); err != nil {
			t.Fatal(err)
		}
	}
	git(t, repo, "pack-refs", "--all") // packed refs must read the same as loose ones
	got, err := s.Branches("research/")
	if want := "research/a research/a.m1 research/b"; err != nil || strings.Join(got, " ") != want {
		t.Errorf("Branches = %v, %v; want %s", got, err, want)
	}
	if _, err := s.Head("research/none"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Head of a missing branch: %v", err)
	}
	if b, err := s.ReadFile("research/a", "d/w/f.md"); err != nil || string(b) != "x" {
		t.Errorf("ReadFile = %q, %v", b, err)
	}
	for _, rev := range []string{"research/a", "refs/heads/research/a", strings.TrimSpace(git(t, repo, "rev-parse", "research/a"))} {
		if _, err := s.ReadFile(rev, "d/w/nope.md"); !errors.Is(err, ErrNotFound) {
			t.Errorf("ReadFile(%s) of a missing path: %v", rev, err)
		}
	}
	if _, err := s.ReadFile("research/none", "x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("ReadFile of a missing branch: %v", err)
	}
	if files, err := s.ListFiles("research/a", "d"); err != nil || strings.Join(files, " ") != "d/w/f.md" {
		t.Errorf("ListFiles = %v, %v", files, err)
	}
	git(t, repo, "checkout", "-q", "--detach")
	if b, err := s.CurrentBranch(); err != nil || b != "" {
		t.Errorf("CurrentBranch when detached = %q, %v", b, err)
	}
	bad := []SnapshotOptions{
		{Branch: "bad..name", Mounts: []Mount{{Dir: ws, Tree: "w"}}},
		{Branch: "research/x.lock", Mounts: []Mount{{Dir: ws, Tree: "w"}}},
		{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: "../w"}}},
		{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: "/abs"}}},
		{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: "a/.git"}}},
		{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: "a"}, {Dir: ws, Tree: "a/b"}}},
		{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: "a"}}, Exclude: []string{"["}},
		{Branch: "research/x", Base: "nosuchbranch", Mounts: []Mount{{Dir: ws, Tree: "a"}}},
	}
	before := git(t, repo, "show-ref")
	for _, o := range bad {
		if _, err := s.Snapshot(ctx, o); err == nil {
			t.Errorf("Snapshot(%+v) accepted", o)
		}
	}
	if after := git(t, repo, "show-ref"); after != before {
		t.Errorf("bad input changed refs:\n%s\n->\n%s", before, after)
	}
}

func TestAddExclude(t *testing.T) {
	repo := newRepo(t)
	s := open(t, repo)
	for range 3 {
		if err := s.AddExclude("/.research/"); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := os.ReadFile(filepath.Join(repo, ".git", "info", "exclude"))
	if n := strings.Count(string(b), "/.research/\n"); n != 1 {
		t.Fatalf("pattern appears %d times:\n%s", n, b)
	}
	writeFile(t, filepath.Join(repo, ".research", "x", "a"), "1")
	if st := git(t, repo, "status", "--porcelain"); st != "" {
		t.Fatalf("git status shows the excluded workspace:\n%s", st)
	}
}

func TestSnapshotLeavesUserAlone(t *testing.T) {
	repo := newRepo(t)
	writeFile(t, filepath.Join(repo, "staged.txt"), "staged\n")
	git(t, repo, "add", "staged.txt")
	writeFile(t, filepath.Join(repo, "README.md"), "edited\n")
	writeFile(t, filepath.Join(repo, "untracked.txt"), "u\n")
	before, head := userState(t, repo), git(t, repo, "rev-parse", "HEAD")
	s := open(t, repo)
	ws := filepath.Join(t.TempDir(), "ws")
	writeFile(t, filepath.Join(ws, "a.md"), "a")
	if _, err := s.Snapshot(context.Background(), SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: ".research/x"}}}); err != nil {
		t.Fatal(err)
	}
	if after := userState(t, repo); after != before {
		t.Errorf("user state changed:\n%s\n->\n%s", before, after)
	}
	if h := git(t, repo, "rev-parse", "HEAD"); h != head {
		t.Errorf("HEAD moved %s -> %s", head, h)
	}
}

package gitstore

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withoutGit makes the package behave as if git were not installed; the
// tests themselves still check the result with the real git CLI.
func withoutGit(t *testing.T) {
	saved := gitPath
	gitPath = func() string { return "" }
	t.Cleanup(func() { gitPath = saved })
}

func TestRepackWithoutGit(t *testing.T) {
	repo := newRepo(t)
	withoutGit(t)
	s := open(t, repo)
	ws := filepath.Join(t.TempDir(), "ws")
	for i := range 50 {
		writeFile(t, filepath.Join(ws, "state.json"), strings.Repeat("x", i))
		if _, err := s.Snapshot(context.Background(), SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: "w"}}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Repack(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(git(t, repo, "count-objects", "-v"), "count: 0\n"); n != 1 {
		t.Errorf("loose objects left:\n%s", git(t, repo, "count-objects", "-v"))
	}
	fsck(t, repo)
	// The Store keeps working on the packed objects.
	writeFile(t, filepath.Join(ws, "state.json"), "after repack")
	if _, err := s.Snapshot(context.Background(), SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: "w"}}}); err != nil {
		t.Fatal(err)
	}
	if b, err := s.ReadFile("research/x", "w/state.json"); err != nil || string(b) != "after repack" {
		t.Errorf("ReadFile after repack = %q, %v", b, err)
	}
	if n := strings.TrimSpace(git(t, repo, "rev-list", "--count", "research/x")); n != "51" {
		t.Errorf("branch has %s commits, want 51", n)
	}
	fsck(t, repo)
}

func TestMergeWithoutGit(t *testing.T) {
	repo := newRepo(t)
	withoutGit(t)
	s := open(t, repo)
	git(t, repo, "branch", "release")
	main := strings.TrimSpace(git(t, repo, "rev-parse", "main"))
	src := session(t, s, main, "# R\n")
	if _, err := s.Merge(context.Background(), MergeOptions{Source: "research/x", Target: "release", Paths: []string{"reports/x/report.md"}}); err != nil {
		t.Fatal(err)
	}
	if got := git(t, repo, "log", "-1", "--format=%P", "release"); got != main+" "+src+"\n" {
		t.Errorf("parents %q", got)
	}
	// Without git the checked-out branch gets the file on disk; its index
	// cannot be updated safely, so it is left alone.
	if _, err := s.Merge(context.Background(), MergeOptions{Source: "research/x", Target: "main", Paths: []string{"reports/x/report.md"}}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(repo, "reports", "x", "report.md")); err != nil || string(b) != "# R\n" {
		t.Errorf("report on disk: %q, %v", b, err)
	}
	fsck(t, repo)
}

package gitstore

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRestoreStaysInside(t *testing.T) {
	repo := newRepo(t)
	s := open(t, repo)
	src := filepath.Join(t.TempDir(), "src")
	tree{"sub/file.md": "from git\n", "keep.md": "k"}.build(t, src)
	if _, err := s.Snapshot(context.Background(), SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: src, Tree: "w"}}}); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "outside")
	tree{"victim.md": "do not touch\n"}.build(t, outside)
	dst := filepath.Join(t.TempDir(), "dst")
	// On disk, "sub" is a symlink out of the directory, and a stray file
	// links to the outside too: Restore must replace, never follow, them.
	tree{"sub": "->" + outside, "stray": "->" + filepath.Join(outside, "victim.md")}.build(t, dst)
	if err := s.Restore("research/x", []Mount{{Dir: dst, Tree: "w"}}, nil); err != nil {
		t.Fatal(err)
	}
	if got := readTreeDir(t, outside); len(got) != 1 || got["victim.md"] != "do not touch\n" {
		t.Errorf("outside dir changed: %v", got)
	}
	got := readTreeDir(t, dst)
	if len(got) != 2 || got["sub/file.md"] != "from git\n" || got["keep.md"] != "k" {
		t.Errorf("restored %v", got)
	}
}

func TestRestoreMissingSubtreeEmptiesDir(t *testing.T) {
	repo := newRepo(t)
	s := open(t, repo)
	dst := filepath.Join(t.TempDir(), "dst")
	tree{"old.md": "o", "research.lock.json": "lock", "d/e.md": "e"}.build(t, dst)
	// main has no "w" subtree at all.
	err := s.Restore("main", []Mount{{Dir: dst, Tree: "w"}}, []string{"w/research.lock.json"})
	if err != nil {
		t.Fatal(err)
	}
	if got := readTreeDir(t, dst); len(got) != 1 || got["research.lock.json"] != "lock" {
		t.Errorf("after restoring an absent subtree: %v", got)
	}
	if err := s.Restore("research/none", []Mount{{Dir: dst, Tree: "w"}}, nil); err == nil {
		t.Error("Restore of a missing branch succeeded")
	}
}

func TestRestoreKeepsUnchangedFiles(t *testing.T) {
	repo := newRepo(t)
	s := open(t, repo)
	ws := filepath.Join(t.TempDir(), "ws")
	tree{"a.md": "a", "b.md": "b"}.build(t, ws)
	if _, err := s.Snapshot(context.Background(), SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: "w"}}}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(filepath.Join(ws, "a.md"))
	writeFile(t, filepath.Join(ws, "b.md"), "changed after the commit")
	if err := s.Restore("research/x", []Mount{{Dir: ws, Tree: "w"}}, nil); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(filepath.Join(ws, "a.md"))
	if !os.SameFile(before, after) {
		t.Error("an unchanged file was rewritten")
	}
	if got := readTreeDir(t, ws); got["b.md"] != "b" {
		t.Errorf("b.md = %q, want the committed content", got["b.md"])
	}
}

func TestRepackSize(t *testing.T) {
	n := 500 // BenchmarkSnapshotVsGit measures the 1,000-snapshot figure
	if testing.Short() || raceEnabled {
		n = 300
	}
	repo := newRepo(t)
	s := open(t, repo)
	ws := filepath.Join(t.TempDir(), "ws")
	for i := range 20 {
		writeFile(t, filepath.Join(ws, "progress", string(rune('a'+i))+".md"), strings.Repeat("research notes line\n", 50+i))
	}
	for i := range n {
		writeFile(t, filepath.Join(ws, "state.json"), strings.Repeat("{\"step\": 1}\n", 20)+string(rune('0'+i%10))+strings.Repeat("x", i))
		if _, err := s.Snapshot(context.Background(), SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: ".research/x"}}}); err != nil {
			t.Fatal(err)
		}
	}
	loose := dirSize(t, filepath.Join(repo, ".git"))
	if err := s.Repack(context.Background()); err != nil {
		t.Fatal(err)
	}
	ours := dirSize(t, filepath.Join(repo, ".git"))
	fsck(t, repo)
	if b, err := s.ReadFile("research/x", ".research/x/progress/a.md"); err != nil || len(b) == 0 {
		t.Fatalf("read after repack: %v", err)
	}
	git(t, repo, "gc", "-q")
	gc := dirSize(t, filepath.Join(repo, ".git"))
	t.Logf("%d snapshots: .git %d bytes loose, %d after Repack, %d after git gc (%.2fx)", n, loose, ours, gc, float64(ours)/float64(gc))
	if float64(ours) > 1.5*float64(gc) {
		t.Errorf(".git after Repack is %d bytes, more than 1.5x the %d of git gc", ours, gc)
	}
}

// dirSize sums the sizes of the files under dir, in 4 KiB blocks as a disk stores them.
func dirSize(tb testing.TB, dir string) int64 {
	tb.Helper()
	var total int64
	err := filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			total += (fi.Size() + 4095) / 4096 * 4096
		}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return total
}

func TestRestoreSkipsExcludedDirs(t *testing.T) {
	repo := newRepo(t)
	s := open(t, repo)
	src := filepath.Join(t.TempDir(), "src")
	tree{"archive/run1/a.md": "old", "keep.md": "k"}.build(t, src)
	// Committed without excludes, then restored with the archive excluded:
	// nothing below it is written, and what is on disk there stays.
	if _, err := s.Snapshot(context.Background(), SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: src, Tree: "w"}}}); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "dst")
	tree{"archive/mine.md": "local"}.build(t, dst)
	if err := s.Restore("research/x", []Mount{{Dir: dst, Tree: "w"}}, []string{"w/archive"}); err != nil {
		t.Fatal(err)
	}
	if got := readTreeDir(t, dst); len(got) != 2 || got["archive/mine.md"] != "local" || got["keep.md"] != "k" {
		t.Errorf("restored %v", got)
	}
}

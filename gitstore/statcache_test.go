package gitstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestStatCacheSurvivesReopen(t *testing.T) {
	repo := newRepo(t)
	ws := filepath.Join(t.TempDir(), "ws")
	tree{"a.md": "aaaa", "b.md": "b"}.build(t, ws)
	old := time.Now().Add(-time.Hour)
	for _, f := range []string{"a.md", "b.md"} {
		os.Chtimes(filepath.Join(ws, f), old, old)
	}
	o := SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: "w"}}}
	first := open(t, repo)
	if _, err := first.Snapshot(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	first.Close()

	// Same size, same mtime, other bytes: only a Store that trusts the saved
	// stat cache (as git trusts its index) misses this edit, proving the
	// next run does not reread unchanged files.
	writeFile(t, filepath.Join(ws, "a.md"), "AAAA")
	os.Chtimes(filepath.Join(ws, "a.md"), old, old)
	second := open(t, repo)
	if _, err := second.Snapshot(context.Background(), o); !errors.Is(err, ErrNothingToCommit) {
		t.Fatalf("snapshot after reopen: %v, want ErrNothingToCommit from the saved cache", err)
	}
	writeFile(t, filepath.Join(ws, "b.md"), "bigger")
	if _, err := second.Snapshot(context.Background(), o); err != nil {
		t.Fatalf("a changed size must be seen: %v", err)
	}
	if got := git(t, repo, "show", "research/x:w/b.md"); got != "bigger" {
		t.Errorf("b.md committed as %q", got)
	}
	second.Close()

	// A damaged cache file is ignored, never an error.
	caches, _ := filepath.Glob(filepath.Join(repo, ".git", "rgit", "statcache", "*"))
	if len(caches) != 1 {
		t.Fatalf("stat cache files: %v", caches)
	}
	os.WriteFile(caches[0], []byte(statCacheHeader+"garbage\x00\x00 1 2\t\x00"), 0o644)
	writeFile(t, filepath.Join(ws, "c.md"), "c")
	if _, err := open(t, repo).Snapshot(context.Background(), o); err != nil {
		t.Fatalf("snapshot with a damaged cache: %v", err)
	}
	if got := git(t, repo, "ls-tree", "--name-only", "-r", "research/x"); !strings.Contains(got, "w/c.md") {
		t.Errorf("tree after a damaged cache:\n%s", got)
	}
	fsck(t, repo)
}

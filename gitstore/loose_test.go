package gitstore

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// LooseObjects agrees with git count-objects before and after a repack.
func TestLooseObjects(t *testing.T) {
	repo := newRepo(t)
	s := open(t, repo)
	ws := filepath.Join(t.TempDir(), "ws")
	for i := range 3 {
		writeFile(t, filepath.Join(ws, "state.json"), strings.Repeat("x", i+1))
		if _, err := s.Snapshot(context.Background(), SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: ".research/x"}}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, step := range []string{"after snapshots", "after repack"} {
		if step == "after repack" {
			if err := s.Repack(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.LooseObjects()
		if err != nil {
			t.Fatal(err)
		}
		if want := gitLoose(t, repo); got != want {
			t.Errorf("%s: LooseObjects = %d, git count-objects says %d", step, got, want)
		}
		if step == "after snapshots" && got < 3*3 { // each snapshot: blob, two trees and a commit at least
			t.Errorf("%s: only %d loose objects", step, got)
		}
	}
}

// gitLoose is git's count of loose objects.
func gitLoose(tb testing.TB, repo string) int {
	for _, line := range strings.Split(git(tb, repo, "count-objects", "-v"), "\n") {
		if v, ok := strings.CutPrefix(line, "count: "); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				tb.Fatal(err)
			}
			return n
		}
	}
	tb.Fatal("git count-objects printed no count")
	return 0
}

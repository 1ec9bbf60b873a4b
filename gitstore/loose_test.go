package gitstore

import (
	"context"
	"os"
	"path/filepath"
	"slices"
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

// A directory whose entries did not change keeps its tree; any change
// below it (content, a new or removed file, a mode) gives a new one that
// holds the change.
func TestSnapshotDirectoryChanges(t *testing.T) {
	repo := newRepo(t)
	s := open(t, repo)
	ws := filepath.Join(t.TempDir(), "ws")
	writeFile(t, filepath.Join(ws, "state.json"), "0")
	writeFile(t, filepath.Join(ws, "progress", "a.md"), "a1")
	writeFile(t, filepath.Join(ws, "progress", "b.md"), "b1")
	snap := func() string {
		t.Helper()
		if _, err := s.Snapshot(context.Background(), SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: "w"}}, AllowEmpty: true}); err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(git(t, repo, "rev-parse", "research/x:w/progress"))
	}
	first := snap()
	for _, tc := range []struct {
		name    string
		change  func()
		same    bool
		wantA   string
		wantHas []string
	}{
		{"other file changed", func() { writeFile(t, filepath.Join(ws, "state.json"), "1") }, true, "a1", []string{"a.md", "b.md"}},
		{"content changed", func() { writeFile(t, filepath.Join(ws, "progress", "a.md"), "a2") }, false, "a2", []string{"a.md", "b.md"}},
		{"file added", func() { writeFile(t, filepath.Join(ws, "progress", "c.md"), "c") }, false, "a2", []string{"a.md", "b.md", "c.md"}},
		{"file removed", func() { os.Remove(filepath.Join(ws, "progress", "b.md")) }, false, "a2", []string{"a.md", "c.md"}},
	} {
		tc.change()
		got := snap()
		if (got == first) != tc.same {
			t.Errorf("%s: progress tree %s, before %s: same = %v, want %v", tc.name, got, first, got == first, tc.same)
		}
		first = got
		if a := git(t, repo, "show", "research/x:w/progress/a.md"); a != tc.wantA {
			t.Errorf("%s: a.md = %q, want %q", tc.name, a, tc.wantA)
		}
		if ls := strings.Fields(git(t, repo, "ls-tree", "--name-only", "research/x:w/progress")); !slices.Equal(ls, tc.wantHas) {
			t.Errorf("%s: progress holds %v, want %v", tc.name, ls, tc.wantHas)
		}
	}
	fsck(t, repo)
}

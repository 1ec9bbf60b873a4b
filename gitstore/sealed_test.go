package gitstore

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSnapshotSealed checks what a snapshot sees of a sealed directory
// after earlier snapshots listed it: every added or removed file, and
// every file the writer names as written; a file rewritten by someone
// else is seen only where the directory cannot be trusted (it was written
// within the racy window, or has a subdirectory).
func TestSnapshotSealed(t *testing.T) {
	old := time.Now().Add(-time.Hour)
	inPlace := func(t *testing.T, dir string) { rewriteKeepingDirTime(t, dir, "a", "changed") }
	renameOver := func(t *testing.T, dir string) {
		writeFile(t, filepath.Join(dir, "tmp"), "changed")
		if err := os.Rename(filepath.Join(dir, "tmp"), filepath.Join(dir, "a")); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name    string
		settled bool // the directory and its files are older than the racy window
		change  func(t *testing.T, dir string)
		wrote   []string // names the writer gives in SnapshotOptions.Wrote
		want    string   // sources/a (or file) in the new commit
		file    string   // the file want is about, when not a
		listing string   // the sources in the new commit
	}{
		{name: "added", settled: true, change: func(t *testing.T, dir string) { writeFile(t, filepath.Join(dir, "c"), "3") },
			want: "1", listing: "a\nb\nc\n"},
		{name: "removed", settled: true, change: func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, "b")) },
			want: "1", listing: "a\n"},
		{name: "renamed over, named", settled: true, change: renameOver, wrote: []string{"a"}, want: "changed", listing: "a\nb\n"},
		{name: "renamed over, not named", settled: true, change: renameOver, want: "1", listing: "a\nb\n"},
		{name: "rewritten in place, named", settled: true, change: inPlace, wrote: []string{"a"}, want: "changed", listing: "a\nb\n"},
		{name: "rewritten in place, not named", settled: true, change: inPlace, want: "1", listing: "a\nb\n"},
		{name: "rewritten in place, racy", settled: false, change: inPlace, want: "changed", listing: "a\nb\n"},
		{name: "added around, rewritten in place, not named", settled: true, change: func(t *testing.T, dir string) {
			rewriteKeepingDirTime(t, dir, "b", "changed")
			writeFile(t, filepath.Join(dir, "0"), "0") // sorts before every earlier file
			writeFile(t, filepath.Join(dir, "ab"), "3")
		}, file: "b", want: "2", listing: "0\na\nab\nb\n"},
		{name: "subdirectory changed", settled: true, change: func(t *testing.T, dir string) {
			rewriteKeepingDirTime(t, filepath.Join(dir, "sub"), "d", "changed")
		}, want: "1", listing: "a\nb\nsub\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			repo := newRepo(t)
			s := open(t, repo)
			ws := filepath.Join(repo, ".research", "x")
			dir := filepath.Join(ws, "sources")
			writeFile(t, filepath.Join(dir, "a"), "1")
			writeFile(t, filepath.Join(dir, "b"), "2")
			if tc.name == "subdirectory changed" {
				writeFile(t, filepath.Join(dir, "sub", "d"), "4")
				settle(t, filepath.Join(dir, "sub"), old)
			}
			if tc.settled {
				settle(t, dir, old)
			} else {
				// Dated ahead of the clock: inside the racy window however
				// long the snapshots below take on a loaded machine.
				settle(t, dir, time.Now().Add(time.Hour))
			}
			o := SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: ".research/x"}},
				Sealed: []string{".research/*/sources"}, AllowEmpty: true}
			for range 2 { // the second snapshot takes what it can from the first's listing
				if _, err := s.Snapshot(context.Background(), o); err != nil {
					t.Fatal(err)
				}
			}
			tc.change(t, dir)
			for _, name := range tc.wrote {
				o.Wrote = append(o.Wrote, filepath.Join(dir, name))
			}
			if _, err := s.Snapshot(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			if got := git(t, repo, "ls-tree", "--name-only", "research/x:.research/x/sources"); got != tc.listing {
				t.Errorf("sources listed\n%s\nwant\n%s", got, tc.listing)
			}
			file := cmp.Or(tc.file, "a")
			if got := git(t, repo, "show", "research/x:.research/x/sources/"+file); got != tc.want {
				t.Errorf("sources/%s = %q, want %q", file, got, tc.want)
			}
			if tc.name == "subdirectory changed" {
				if got := git(t, repo, "show", "research/x:.research/x/sources/sub/d"); got != "changed" {
					t.Errorf("sources/sub/d = %q, want the change: a subdirectory is never taken on trust", got)
				}
			}
			fsck(t, repo)
		})
	}
}

// TestSnapshotSealedNewStore checks that a new Store lists a sealed
// directory again: the trust lasts one Store, so an edit made between runs
// is committed by the next run.
func TestSnapshotSealedNewStore(t *testing.T) {
	repo := newRepo(t)
	ws := filepath.Join(repo, ".research", "x")
	dir := filepath.Join(ws, "sources")
	writeFile(t, filepath.Join(dir, "a"), "1")
	settle(t, dir, time.Now().Add(-time.Hour))
	o := SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: ".research/x"}},
		Sealed: []string{".research/*/sources"}, AllowEmpty: true}
	if _, err := open(t, repo).Snapshot(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	rewriteKeepingDirTime(t, dir, "a", "edited between runs")
	if _, err := open(t, repo).Snapshot(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if got := git(t, repo, "show", "research/x:.research/x/sources/a"); got != "edited between runs" {
		t.Errorf("sources/a = %q, want the edit", got)
	}
}

func TestSnapshotSealedBadPattern(t *testing.T) {
	repo := newRepo(t)
	o := SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: filepath.Join(repo, "ws"), Tree: "ws"}}, Sealed: []string{"["}}
	if _, err := open(t, repo).Snapshot(context.Background(), o); err == nil || !strings.Contains(err.Error(), "pattern") {
		t.Fatalf("Snapshot with a malformed sealed pattern = %v, want a pattern error", err)
	}
	if out, _ := gitErr(repo, "rev-parse", "--verify", "-q", "research/x"); out != "" {
		t.Fatalf("branch created: %s", out)
	}
}

// settle dates a directory and its files at t, as if written long ago.
func settle(t *testing.T, dir string, at time.Time) {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range des {
		if err := os.Chtimes(filepath.Join(dir, de.Name()), at, at); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chtimes(dir, at, at); err != nil {
		t.Fatal(err)
	}
}

// rewriteKeepingDirTime rewrites a file in place, as a writer breaking the
// sealed contract would: the directory's mtime stays where it was.
func rewriteKeepingDirTime(t *testing.T, dir, name, content string) {
	t.Helper()
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(dir, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
}

// TestSnapshotSealedNamedRacy: a file the writer named is settled for the
// seal even when it was hashed within the racy window, so the next
// snapshot takes it from the listing instead of stating and reading the
// records a research phase just wrote. An unnamed change is then not
// committed, as for any settled file (TestSnapshotSealed); a named one is.
func TestSnapshotSealedNamedRacy(t *testing.T) {
	for _, nameAgain := range []bool{false, true} {
		t.Run(fmt.Sprintf("named again %v", nameAgain), func(t *testing.T) {
			repo := newRepo(t)
			s := open(t, repo)
			ws := filepath.Join(repo, ".research", "x")
			dir := filepath.Join(ws, "sources")
			writeFile(t, filepath.Join(dir, "a"), "1")
			writeFile(t, filepath.Join(dir, "b"), "2")
			settle(t, dir, time.Now().Add(-time.Hour))
			o := SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: ".research/x"}},
				Sealed: []string{".research/*/sources"}, AllowEmpty: true}
			snap := func(wrote ...string) {
				t.Helper()
				o.Wrote = nil
				for _, name := range wrote {
					o.Wrote = append(o.Wrote, filepath.Join(dir, name))
				}
				if _, err := s.Snapshot(context.Background(), o); err != nil {
					t.Fatal(err)
				}
			}
			snap()
			// The writer rewrites a and names it; an mtime ahead of the
			// clock keeps it inside the racy window however slow the machine.
			rewriteKeepingDirTime(t, dir, "a", "written")
			ahead := time.Now().Add(time.Hour)
			if err := os.Chtimes(filepath.Join(dir, "a"), ahead, ahead); err != nil {
				t.Fatal(err)
			}
			snap("a")
			rewriteKeepingDirTime(t, dir, "a", "rewritten")
			if nameAgain {
				snap("a")
			} else {
				snap()
			}
			want := map[bool]string{false: "written", true: "rewritten"}[nameAgain]
			if got := git(t, repo, "show", "research/x:.research/x/sources/a"); got != want {
				t.Errorf("sources/a = %q, want %q", got, want)
			}
			fsck(t, repo)
		})
	}
}

package index

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// results renders the top hits of a query for comparison.
func results(ix *Index, q string) []string {
	var out []string
	for _, h := range ix.Search(Query{}.Add(q, 1), 10, nil) {
		f, p := ix.Passage(h.Doc)
		out = append(out, fmt.Sprintf("%s:%d-%d %s %.6f", ix.CitePath(f), p.Start, p.End, p.Label, h.Score))
	}
	return out
}

func TestOpenCache(t *testing.T) {
	corpus := filepath.Join(t.TempDir(), "notes")
	cache := t.TempDir()
	write(t, corpus, "a.md", "# Alpha\n\nThe starvation mode hands the lock off.\n")
	write(t, corpus, "b.md", "# Beta\n\nGoroutines wait in a queue.\n")
	write(t, corpus, "sub/c.go", "// Lock locks.\nfunc Lock() {}\n")
	write(t, corpus, "img.bin", "\x00\x01\x02")
	cfg := Config{Dirs: []string{corpus}, CacheDir: cache}
	open := func() (*Index, Stats) {
		t.Helper()
		ix, st, err := Open(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return ix, st
	}
	later := time.Now().Add(time.Hour)
	steps := []struct {
		name   string
		change func()
		want   Stats
	}{
		{"cold", func() {}, Stats{Files: 4, Passages: 3, Indexed: 4, Saved: true}},
		{"warm", func() {}, Stats{Files: 4, Passages: 3, Cached: true}},
		{"edit", func() { write(t, corpus, "b.md", "# Beta\n\nGoroutines starve.\n\n## More\n\nMore.\n") },
			Stats{Files: 4, Passages: 4, Indexed: 1, Cached: true, Saved: true}},
		{"touch", func() { os.Chtimes(filepath.Join(corpus, "a.md"), later, later) },
			Stats{Files: 4, Passages: 4, Cached: true, Saved: true}},
		{"after touch", func() {}, Stats{Files: 4, Passages: 4, Cached: true}},
		{"remove", func() { os.Remove(filepath.Join(corpus, "sub", "c.go")) },
			Stats{Files: 3, Passages: 3, Cached: true, Saved: true}},
		{"add", func() { write(t, corpus, "d.txt", "starvation again\n") },
			Stats{Files: 4, Passages: 4, Indexed: 1, Cached: true, Saved: true}},
	}
	for _, s := range steps {
		s.change()
		ix, st := open()
		if st != s.want {
			t.Errorf("%s: stats %+v, want %+v", s.name, st, s.want)
		}
		// The updated index ranks exactly as a cold build of the same files.
		cold, _, err := Open(context.Background(), Config{Dirs: []string{corpus}})
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"starvation", "goroutines wait", "lock", "alpha beta more"} {
			if got, want := results(ix, q), results(cold, q); !slices.Equal(got, want) {
				t.Errorf("%s: query %q: cached %q, cold %q", s.name, q, got, want)
			}
		}
	}
}

func TestOpenBadCache(t *testing.T) {
	corpus, cache := t.TempDir(), t.TempDir()
	write(t, corpus, "a.txt", "hello world\n")
	cfg := Config{Dirs: []string{corpus}, CacheDir: cache}
	if _, _, err := Open(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(cache, "*.idx"))
	if len(files) != 1 {
		t.Fatalf("cache files %v, want one", files)
	}
	for _, junk := range []string{"", "RGITIDX7", "RGITIDX7\x05\x01", "garbage"} {
		if err := os.WriteFile(files[0], []byte(junk), 0o644); err != nil {
			t.Fatal(err)
		}
		ix, st, err := Open(context.Background(), cfg)
		if err != nil || st.Cached || st.Indexed != 1 || len(results(ix, "hello")) != 1 {
			t.Errorf("cache %q: stats %+v err %v; want a clean rebuild", junk, st, err)
		}
	}
}

func TestOpenRespectsGitignore(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	write(t, repo, ".gitignore", "secret.txt\nbuild/\n")
	write(t, repo, "secret.txt", "zebra password\n")
	write(t, repo, "build/out.txt", "zebra artefact\n")
	write(t, repo, "notes.txt", "zebra notes\n")
	write(t, repo, ".research/x/progress.md", "zebra workspace\n")
	ix, _, err := Open(context.Background(), Config{Dirs: []string{repo}})
	if err != nil {
		t.Fatal(err)
	}
	hits := ix.Search(Query{}.Add("zebra", 1), 10, nil)
	if len(hits) != 1 {
		t.Fatalf("zebra found in %q, want notes.txt only", results(ix, "zebra"))
	}
	if f, _ := ix.Passage(hits[0].Doc); f.Rel != "notes.txt" {
		t.Errorf("indexed %s, want notes.txt", f.Rel)
	}
}

func TestMakeRootsLabels(t *testing.T) {
	base := t.TempDir()
	for _, d := range []string{"a/docs", "b/docs", "src/sync"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	roots, err := MakeRoots([]string{filepath.Join(base, "b/docs"), filepath.Join(base, "a/docs"), filepath.Join(base, "src/sync")})
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, r := range roots {
		labels = append(labels, r.Label)
	}
	if want := []string{"a/docs", "b/docs", "src/sync"}; !slices.Equal(labels, want) {
		t.Errorf("labels %q, want %q", labels, want)
	}
	if _, err := MakeRoots([]string{filepath.Join(base, "missing")}); err == nil {
		t.Error("MakeRoots accepted a missing directory")
	}
}

func TestSearchRanksRareTermFirst(t *testing.T) {
	corpus := t.TempDir()
	for i := range 20 {
		write(t, corpus, fmt.Sprintf("common%02d.txt", i), "the lock is held by a goroutine\n")
	}
	write(t, corpus, "rare.txt", "a goroutine starves when the lock is never handed off\n")
	write(t, corpus, "rare_test.go", "// goroutine starves lock handed off starves\nfunc TestX() {}\n")
	ix, _, err := Open(context.Background(), Config{Dirs: []string{corpus}})
	if err != nil {
		t.Fatal(err)
	}
	hits := ix.Search(Query{}.Add("why does a goroutine starve on a lock", 1), 3, nil)
	if len(hits) != 3 {
		t.Fatalf("got %d hits, want 3", len(hits))
	}
	f, _ := ix.Passage(hits[0].Doc)
	if f.Rel != "rare.txt" {
		t.Errorf("best hit %s, want rare.txt (tests weigh half)", f.Rel)
	}
	for i := 1; i < len(hits); i++ {
		if hits[i].Score > hits[i-1].Score {
			t.Errorf("hits not sorted by score: %v", hits)
		}
	}
}

// Sessions skip their own workspace; one outside the corpus must not make
// another session's cache unusable, while one inside it changes the files.
func TestCacheSharedAcrossWorkspaces(t *testing.T) {
	corpus := filepath.Join(t.TempDir(), "notes")
	cache := t.TempDir()
	write(t, corpus, "a.md", "# Alpha\n\nThe starvation mode hands the lock off.\n")
	write(t, corpus, "work/b.md", "# Beta\n\nA session's own report.\n")
	steps := []struct {
		name string
		skip string
		want Stats
	}{
		{"first workspace", t.TempDir(), Stats{Files: 2, Passages: 2, Indexed: 2, Saved: true}},
		{"second workspace", t.TempDir(), Stats{Files: 2, Passages: 2, Cached: true}},
		{"workspace in the corpus", filepath.Join(corpus, "work"), Stats{Files: 1, Passages: 1, Indexed: 1, Saved: true}},
		{"again in the corpus", filepath.Join(corpus, "work"), Stats{Files: 1, Passages: 1, Cached: true}},
	}
	for _, s := range steps {
		_, st, err := Open(context.Background(), Config{Dirs: []string{corpus}, CacheDir: cache, Skip: []string{s.skip}})
		if err != nil {
			t.Fatal(err)
		}
		if st != s.want {
			t.Errorf("%s: stats %+v, want %+v", s.name, st, s.want)
		}
	}
}

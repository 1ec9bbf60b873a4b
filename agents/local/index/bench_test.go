package index

// Benchmarks over the Go distribution's sources ($(go env GOROOT)/src, or
// RGIT_BENCH_CORPUS). Each reports peak-RSS-MB, the process's peak resident
// memory so far (getrusage), so run the cold benchmark alone for a clean
// figure:
//
//	go test -run '^$' -bench 'IndexCold' -benchtime 1x -count 5 ./agents/local/index
//
// or, under an external meter:
//
//	go test -c -o /tmp/index.test ./agents/local/index
//	/usr/bin/time -v /tmp/index.test -test.run '^$' -test.bench IndexCold -test.benchtime 1x
//
// Baselines, measured in the same run: ReadAll lists, reads and hashes every
// file on one goroutine (the I/O floor of any cold index), and QueryScan answers a query by
// scanning every passage for the query terms without the index.

import (
	"context"
	"crypto/sha256"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func benchCorpus(b *testing.B) string {
	b.Helper()
	if c := os.Getenv("RGIT_BENCH_CORPUS"); c != "" {
		return c
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("go env GOROOT: ", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "src")
	if _, err := os.Stat(dir); err != nil {
		b.Skip("no Go sources: ", err)
	}
	return dir
}

var benchQueries = []string{
	"How does sync.Mutex avoid starving waiting goroutines?",
	"How does cancelling a parent context propagate to its child contexts?",
	"How does the garbage collector pacer decide when to start the next GC cycle from GOGC?",
	"How does encoding/json treat the omitempty option in struct field tags?",
	"How does bufio.Scanner split input into tokens with a SplitFunc?",
}

func BenchmarkIndexCold(b *testing.B) {
	corpus := benchCorpus(b)
	for b.Loop() {
		ix, _, err := Open(context.Background(), Config{Dirs: []string{corpus}, CacheDir: b.TempDir()})
		if err != nil || ix.Len() == 0 {
			b.Fatal(err)
		}
	}
	reportRSS(b)
}

func BenchmarkIndexWarm(b *testing.B) {
	corpus := benchCorpus(b)
	cfg := Config{Dirs: []string{corpus}, CacheDir: b.TempDir()}
	if _, _, err := Open(context.Background(), cfg); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_, st, err := Open(context.Background(), cfg)
		if err != nil || !st.Cached || st.Indexed != 0 {
			b.Fatal(err, st)
		}
	}
	reportRSS(b)
}

func BenchmarkReadAll(b *testing.B) {
	corpus := benchCorpus(b)
	roots, err := MakeRoots([]string{corpus})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s, err := scanCorpus(context.Background(), roots, nil, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, td := range s.todo { // read and hashed as a cold build does, not tokenized
			data, err := os.ReadFile(td.abs)
			if err != nil {
				b.Fatal(err)
			}
			sha256.Sum256(data)
		}
	}
}

func BenchmarkQuery(b *testing.B) {
	corpus := benchCorpus(b)
	cfg := Config{Dirs: []string{corpus}, CacheDir: b.TempDir()}
	ix, _, err := Open(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	var took []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		if len(ix.Search(Query{}.Add(benchQueries[i%len(benchQueries)], 1), 10, nil)) == 0 {
			b.Fatal("no hits")
		}
		took = append(took, time.Since(start))
		i++
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
}

// BenchmarkQueryScan is the no-index baseline: every passage's text is
// tokenized and matched against the query for every query. The files are
// read into memory first, so it measures matching, not I/O.
func BenchmarkQueryScan(b *testing.B) {
	corpus := benchCorpus(b)
	ix, _, err := Open(context.Background(), Config{Dirs: []string{corpus}})
	if err != nil {
		b.Fatal(err)
	}
	texts := map[int][]string{}
	for fi := range ix.Files {
		data, err := os.ReadFile(ix.AbsPath(&ix.Files[fi]))
		if err != nil {
			continue
		}
		if text, ok := Text(ix.Files[fi].Rel, data); ok {
			texts[fi] = Lines(text)
		}
	}
	i := 0
	for b.Loop() {
		q := Query{}.Add(benchQueries[i%len(benchQueries)], 1)
		best, bestDoc := 0.0, -1
		for doc := range ix.Len() {
			_, p := ix.Passage(doc)
			lines := texts[int(ix.pFile[doc])]
			if lines == nil || p.End > len(lines) {
				continue
			}
			if s := ix.ScoreText(q, strings.Join(lines[p.Start-1:p.End], "\n")); s > best {
				best, bestDoc = s, doc
			}
		}
		if bestDoc < 0 {
			b.Fatal("no hits")
		}
		i++
	}
}

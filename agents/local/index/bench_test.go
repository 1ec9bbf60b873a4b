package index

// Benchmarks over the Go distribution's sources and documents
// ($(go env GOROOT)/src and doc, or RGIT_BENCH_CORPUS). Each reports peak-RSS-MB, the process's peak resident
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
// file on one goroutine (the I/O floor of any cold index), GrepFloor runs
// grep -rlF of a question's answer keys over the corpus, and QueryScan
// answers a query by scanning every passage for the query terms without
// the index. `make bench-index` runs cold, warm and grep three times each,
// interleaved, under /usr/bin/time.

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

// benchCorpus is GOROOT/src and GOROOT/doc, or the directories of
// RGIT_BENCH_CORPUS (a list separated like PATH).
func benchCorpus(b *testing.B) []string {
	b.Helper()
	if c := os.Getenv("RGIT_BENCH_CORPUS"); c != "" {
		return filepath.SplitList(c)
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("go env GOROOT: ", err)
	}
	root := strings.TrimSpace(string(out))
	dirs := []string{filepath.Join(root, "src"), filepath.Join(root, "doc")}
	for _, d := range dirs {
		if _, err := os.Stat(d); err != nil {
			b.Skip("no Go sources: ", err)
		}
	}
	return dirs
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
		ix, _, err := Open(context.Background(), Config{Dirs: corpus, CacheDir: b.TempDir()})
		if err != nil || ix.Len() == 0 {
			b.Fatal(err)
		}
	}
	reportRSS(b)
}

func BenchmarkIndexWarm(b *testing.B) {
	corpus := benchCorpus(b)
	// RGIT_BENCH_CACHE keeps the cache across runs, so that a process
	// measured from outside does warm work only.
	cache := os.Getenv("RGIT_BENCH_CACHE")
	if cache == "" {
		cache = b.TempDir()
	}
	cfg := Config{Dirs: corpus, CacheDir: cache}
	start := time.Now()
	_, st, err := Open(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	first := time.Since(start)
	for b.Loop() {
		_, st, err := Open(context.Background(), cfg)
		if err != nil || !st.Cached || st.Indexed != 0 {
			b.Fatal(err, st)
		}
	}
	if st.Cached && st.Indexed == 0 {
		// A session opens the index once, in a fresh process whose heap
		// has not grown yet: this first open is what it pays, the loop's
		// opens are cheaper.
		b.ReportMetric(float64(first.Microseconds())/1000, "first-open-ms")
	}
	reportRSS(b)
}

func BenchmarkReadAll(b *testing.B) {
	corpus := benchCorpus(b)
	roots, err := MakeRoots(corpus)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s, err := scanCorpus(context.Background(), roots, nil, nil, nil, 1)
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

// grepKeys are answer keys of the evaluation set (testdata/eval), one
// question's worth each: the floor is what grep -rl needs to list the files
// that state them, with no ranking, over the same corpus.
var grepKeys = [][]string{
	{"starvationThresholdNs", "starvation mode"},
	{"propagateCancel", "removeChild"},
	{"synchronized before relation", "transitive closure"},
}

// BenchmarkGrepFloor runs grep -rlF of one question's keys over the corpus
// per iteration: the no-index floor a cold build is compared with.
func BenchmarkGrepFloor(b *testing.B) {
	corpus := benchCorpus(b)
	if _, err := exec.LookPath("grep"); err != nil {
		b.Skip("no grep")
	}
	i := 0
	for b.Loop() {
		args := []string{"-rlF"}
		for _, k := range grepKeys[i%len(grepKeys)] {
			args = append(args, "-e", k)
		}
		out, err := exec.Command("grep", append(args, corpus...)...).Output()
		if err != nil || len(out) == 0 {
			b.Fatal("grep found nothing: ", err)
		}
		i++
	}
}

func BenchmarkQuery(b *testing.B) {
	corpus := benchCorpus(b)
	cfg := Config{Dirs: corpus, CacheDir: b.TempDir()}
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
	ix, _, err := Open(context.Background(), Config{Dirs: corpus})
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

// Package bench compares rgit's hand-written passage index with bleve
// (github.com/blevesearch/bleve/v2) on the same corpus and the same
// passages. It is its own module so that rgit does not depend on bleve.
//
//	cd testdata/bench/bleve
//	go test -run '^$' -bench . -benchtime 1x -count 3     # cold builds, index size, peak RSS
//	go test -run TestCompare -v                           # recall@5, key terms, query latency
//
// Run each cold benchmark alone (-bench 'Cold/rgit', -bench 'Cold/bleve')
// for a clean peak RSS: it is the process's peak so far. The corpus is
// $(go env GOROOT)/src and doc, or RGIT_BENCH_CORPUS (comma-separated).
package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/rgit-dev/rgit/agents/local/index"
)

func corpus(tb testing.TB) []string {
	tb.Helper()
	if c := os.Getenv("RGIT_BENCH_CORPUS"); c != "" {
		return strings.Split(c, ",")
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		tb.Skip("go env GOROOT: ", err)
	}
	root := strings.TrimSpace(string(out))
	dirs := []string{filepath.Join(root, "src"), filepath.Join(root, "doc")}
	for _, d := range dirs {
		if _, err := os.Stat(d); err != nil {
			tb.Skip("no Go sources: ", err)
		}
	}
	return dirs
}

// doc is one passage as bleve indexes it.
type doc struct {
	Text  string `json:"text"`
	Label string `json:"label"`
}

// passages walks dirs and calls fn with each passage of each text file,
// split exactly as rgit's index splits it.
func passages(dirs []string, fn func(id string, d doc)) error {
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
			if err != nil || p != dir && strings.HasPrefix(e.Name(), ".") {
				if e != nil && e.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if !e.Type().IsRegular() {
				return nil
			}
			st, err := e.Info()
			if err != nil || st.Size() > index.MaxFileSize {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			text, ok := index.Text(p, data)
			if !ok {
				return nil
			}
			lines := index.Lines(text)
			title, heads := index.Outline(p, lines, string(data))
			_ = title
			for _, ps := range index.Split(p, lines, heads) {
				fn(fmt.Sprintf("%s:%d-%d", p, ps.Start, ps.End), doc{
					Text: strings.Join(lines[ps.Start-1:ps.End], "\n"), Label: ps.Label,
				})
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func buildBleve(tb testing.TB, dirs []string, dir string) (bleve.Index, int) {
	tb.Helper()
	m := bleve.NewIndexMapping()
	m.DefaultAnalyzer = "en"
	ix, err := bleve.New(dir, m)
	if err != nil {
		tb.Fatal(err)
	}
	batch := ix.NewBatch()
	n := 0
	err = passages(dirs, func(id string, d doc) {
		if err := batch.Index(id, d); err != nil {
			tb.Fatal(err)
		}
		n++
		if batch.Size() >= 2000 {
			if err := ix.Batch(batch); err != nil {
				tb.Fatal(err)
			}
			batch = ix.NewBatch()
		}
	})
	if err == nil {
		err = ix.Batch(batch)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return ix, n
}

func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, e fs.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			if st, err := e.Info(); err == nil {
				n += st.Size()
			}
		}
		return nil
	})
	return n
}

func peakRSSMB() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Maxrss) / 1024
}

func BenchmarkCold(b *testing.B) {
	dirs := corpus(b)
	b.Run("rgit", func(b *testing.B) {
		for b.Loop() {
			cache := b.TempDir()
			ix, _, err := index.Open(context.Background(), index.Config{Dirs: dirs, CacheDir: cache})
			if err != nil || ix.Len() == 0 {
				b.Fatal(err)
			}
			b.ReportMetric(float64(dirSize(cache))/(1<<20), "index-MB")
		}
		b.ReportMetric(peakRSSMB(), "peak-RSS-MB")
	})
	b.Run("bleve", func(b *testing.B) {
		for b.Loop() {
			dir := filepath.Join(b.TempDir(), "bleve")
			ix, _ := buildBleve(b, dirs, dir)
			ix.Close()
			b.ReportMetric(float64(dirSize(dir))/(1<<20), "index-MB")
		}
		b.ReportMetric(peakRSSMB(), "peak-RSS-MB")
	})
}

type question struct {
	Question string   `json:"question"`
	Corpus   string   `json:"corpus"`
	Expected []string `json:"expected"`
	Keys     []string `json:"keys"`
}

// TestCompare asks the evaluation set's Go questions of both engines over
// the same passages and reports, per engine, recall@5 (expected files
// among the five best distinct files), the share of questions with a key
// term in the five best passages, and the median query latency.
func TestCompare(t *testing.T) {
	dirs := corpus(t)
	data, err := os.ReadFile(filepath.Join("..", "..", "eval", "questions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var qs []question
	if err := json.Unmarshal(data, &qs); err != nil {
		t.Fatal(err)
	}
	qs = slices.DeleteFunc(qs, func(q question) bool { return q.Corpus != "" && q.Corpus != "go" })
	goroot := filepath.Dir(dirs[0])
	rg, _, err := index.Open(context.Background(), index.Config{Dirs: dirs})
	if err != nil {
		t.Fatal(err)
	}
	bl, _ := buildBleve(t, dirs, filepath.Join(t.TempDir(), "bleve"))
	defer bl.Close()
	type hit struct {
		file, text string
	}
	engines := []struct {
		name   string
		search func(q string) []hit
	}{
		{"rgit", func(q string) []hit {
			var out []hit
			for _, h := range rg.Search(index.Query{}.Add(q, 1), 30, nil) {
				f, p := rg.Passage(h.Doc)
				out = append(out, hit{file: rg.AbsPath(f), text: passageText(rg.AbsPath(f), p.Start, p.End)})
			}
			return out
		}},
		{"bleve", func(q string) []hit {
			req := bleve.NewSearchRequestOptions(bleve.NewMatchQuery(q), 30, 0, false)
			res, err := bl.Search(req)
			if err != nil {
				t.Fatal(err)
			}
			var out []hit
			for _, h := range res.Hits {
				i := strings.LastIndexByte(h.ID, ':')
				var s, e int
				fmt.Sscanf(h.ID[i+1:], "%d-%d", &s, &e)
				out = append(out, hit{file: h.ID[:i], text: passageText(h.ID[:i], s, e)})
			}
			return out
		}},
	}
	for _, eng := range engines {
		var recall float64
		keys := 0
		var took []time.Duration
		for _, q := range qs {
			start := time.Now()
			hits := eng.search(q.Question)
			took = append(took, time.Since(start))
			var files []string
			for _, h := range hits {
				if !slices.Contains(files, h.file) && len(files) < 5 {
					files = append(files, h.file)
				}
			}
			found := 0
			for _, e := range q.Expected {
				if slices.Contains(files, filepath.Join(goroot, e)) {
					found++
				}
			}
			recall += float64(found) / float64(len(q.Expected))
			top := ""
			for _, h := range hits[:min(5, len(hits))] {
				top += strings.ToLower(h.text)
			}
			if slices.ContainsFunc(q.Keys, func(k string) bool { return strings.Contains(top, strings.ToLower(k)) }) {
				keys++
			}
		}
		slices.Sort(took)
		n := float64(len(qs))
		t.Logf("%-5s questions %d  recall@5 %.3f  key term in top-5 passages %.3f  query p50 %s",
			eng.name, len(qs), recall/n, float64(keys)/n, took[len(took)/2].Round(10*time.Microsecond))
	}
}

func passageText(path string, start, end int) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	text, _ := index.Text(path, data)
	lines := index.Lines(text)
	if end > len(lines) || start < 1 {
		return ""
	}
	return strings.Join(lines[start-1:end], "\n")
}

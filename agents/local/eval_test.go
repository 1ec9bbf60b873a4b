package local

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// evalQuestion is one entry of testdata/eval/questions.json. Paths are
// relative to GOROOT.
type evalQuestion struct {
	Question string   `json:"question"`
	Expected []string `json:"expected"` // files that answer it
	Subtrees []string `json:"subtrees"` // directories holding them, for the quick run
	// FullOnly keeps a question with a large subtree (the runtime, 19 MB)
	// out of the quick run.
	FullOnly bool `json:"full_only"`
}

var sourceRE = regexp.MustCompile("^[0-9]+\\. `([^`]+)`")

// reportSources lists the files of a report's Sources section, in order,
// as absolute paths.
func reportSources(report string, roots []string) []string {
	_, sec, _ := strings.Cut(report, "\n## Sources\n")
	var out []string
	for _, l := range strings.Split(sec, "\n") {
		if m := sourceRE.FindStringSubmatch(l); m != nil {
			out = append(out, resolveCite(m[1], roots))
		}
	}
	return out
}

// TestEval runs the evaluation set and reports recall@5 (the share of a
// question's expected files among the report's first five sources, averaged
// over questions) and the share of questions whose report cites an expected
// file. By default the corpus is the union of the questions' subtrees of
// GOROOT (a few thousand files, so it stays quick) and questions marked
// full_only are left out; RGIT_EVAL=full asks every question over all of
// GOROOT/src and GOROOT/doc.
func TestEval(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "eval", "questions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var qs []evalQuestion
	if err := json.Unmarshal(data, &qs); err != nil {
		t.Fatal(err)
	}
	if len(qs) < 15 {
		t.Fatalf("the evaluation set has %d questions, want at least 15", len(qs))
	}
	root := goroot(t)
	var corpus []string
	if os.Getenv("RGIT_EVAL") == "full" {
		corpus = []string{filepath.Join(root, "src"), filepath.Join(root, "doc")}
	} else {
		qs = slices.DeleteFunc(qs, func(q evalQuestion) bool { return q.FullOnly })
		for _, q := range qs {
			for _, s := range q.Subtrees {
				corpus = append(corpus, filepath.Join(root, filepath.FromSlash(s)))
			}
		}
		slices.Sort(corpus)
		corpus = slices.Compact(corpus)
	}
	a := New(Options{CacheDir: t.TempDir()})
	var recall, cited float64
	for _, q := range qs {
		s := simulate(t, a, q.Question, corpus, 2, 1)
		if errs := VerifyCitations([]byte(s.report), corpus); len(errs) > 0 {
			t.Errorf("%q: citations do not verify: %v", q.Question, errs)
		}
		srcs := reportSources(s.report, corpus)
		top := srcs[:min(5, len(srcs))]
		found, any := 0, false
		for _, e := range q.Expected {
			abs := filepath.Join(root, filepath.FromSlash(e))
			if slices.Contains(top, abs) {
				found++
			}
			any = any || slices.Contains(srcs, abs)
		}
		r := float64(found) / float64(len(q.Expected))
		recall += r
		if any {
			cited++
		}
		t.Logf("recall@5 %.2f cited %-5v %s", r, any, q.Question)
		if r == 0 {
			var rel []string
			for _, p := range top {
				rel = append(rel, strings.TrimPrefix(p, root+"/"))
			}
			t.Logf("    first sources: %v", rel)
		}
	}
	n := float64(len(qs))
	t.Logf("questions %d  recall@5 %.3f  cited-expected %.3f", len(qs), recall/n, cited/n)
	if recall/n < 0.8 {
		t.Errorf("recall@5 = %.3f, goal 0.8", recall/n)
	}
}

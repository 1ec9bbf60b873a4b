package local

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// evalQuestion is one entry of testdata/eval/questions.json. Paths are
// relative to the base directory of the question's corpus: GOROOT for
// "go" (the default), /usr/share/man for "man".
type evalQuestion struct {
	Question string   `json:"question"`
	Kind     string   `json:"kind"`     // "code" or "doc": what the answer is in
	Corpus   string   `json:"corpus"`   // "go" (default) or "man"
	Expected []string `json:"expected"` // files that answer it
	Subtrees []string `json:"subtrees"` // directories holding them, for the quick run
	// Keys are the terms a correct answer states (the mechanism's
	// identifiers or the document's own wording); the executive summary
	// answers the question when it contains one of them.
	Keys []string `json:"keys"`
	// FullOnly keeps a question with a large subtree (the runtime, 19 MB)
	// out of the quick run.
	FullOnly bool `json:"full_only"`
}

// Quality floors of the quick run: the figures the local researcher
// reaches, minus a small margin, so that CI fails when quality drops.
const (
	minAnswerRate = 0.80
	minRecall     = 0.95
)

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

// executiveSummary is the report's Executive Summary section.
func executiveSummary(report string) string {
	_, s, _ := strings.Cut(report, "## Executive Summary\n")
	if i := strings.Index(s, "\n## "); i >= 0 {
		s = s[:i]
	}
	return s
}

// answers reports whether summary states one of keys (case-insensitively).
func answers(summary string, keys []string) bool {
	low := strings.ToLower(summary)
	return slices.ContainsFunc(keys, func(k string) bool { return strings.Contains(low, strings.ToLower(k)) })
}

// evalCorpus is one corpus kind of the evaluation: where its files are and
// which directories a run indexes.
type evalCorpus struct {
	base string
	dirs []string
}

// evalCorpora resolves the corpora of qs: the union of their subtrees in
// the quick run, the whole GOROOT/src+doc and man5, man7 and man8 in the
// full run. A corpus absent on this machine is left out with a message.
func evalCorpora(t *testing.T, qs []evalQuestion, full bool) map[string]evalCorpus {
	t.Helper()
	bases := map[string]string{"go": gorootDir(), "man": "/usr/share/man"}
	if d := os.Getenv("RGIT_EVAL_MAN"); d != "" {
		bases["man"] = d
	}
	out := map[string]evalCorpus{}
	for name, base := range bases {
		var dirs []string
		switch {
		case full && name == "go":
			dirs = []string{"src", "doc"}
		case full && name == "man":
			dirs = []string{"man5", "man7", "man8"}
		default:
			for _, q := range qs {
				if corpusOf(q) == name {
					dirs = append(dirs, q.Subtrees...)
				}
			}
		}
		slices.Sort(dirs)
		dirs = slices.Compact(dirs)
		c := evalCorpus{base: base}
		for _, d := range dirs {
			abs := filepath.Join(base, filepath.FromSlash(d))
			if _, err := os.Stat(abs); err != nil {
				t.Logf("corpus %s: %s is absent on this machine; its questions are skipped", name, abs)
				c.dirs = nil
				break
			}
			c.dirs = append(c.dirs, abs)
		}
		if base != "" && len(c.dirs) > 0 {
			out[name] = c
		}
	}
	return out
}

func corpusOf(q evalQuestion) string {
	if q.Corpus == "" {
		return "go"
	}
	return q.Corpus
}

// evalTally adds up one group of questions.
type evalTally struct {
	n, answered, hit         int
	recall                   float64
	citations, verifiedCites int
}

func (s *evalTally) String() string {
	if s.n == 0 {
		return "no questions"
	}
	n := float64(s.n)
	return fmt.Sprintf("questions %2d  answer rate %.3f  recall@5 %.3f  hit rate %.3f  citations verified %d/%d",
		s.n, float64(s.answered)/n, s.recall/n, float64(s.hit)/n, s.verifiedCites, s.citations)
}

// TestEval runs the evaluation set through the whole loop (breadth 2,
// depth 1) and reports, overall and per kind of question and corpus:
//
//   - answer rate: the share of executive summaries that state one of the
//     question's key terms;
//   - recall@5: the share of a question's expected files among the
//     report's first five sources, averaged over questions;
//   - hit rate: the share of reports citing an expected file anywhere;
//   - citations verified: citations whose quotation is the file's text.
//
// The quick run (the default) indexes the union of the questions'
// subtrees and leaves full_only questions out; RGIT_EVAL=full asks every
// question over all of GOROOT/src+doc and /usr/share/man/man{5,7,8}.
func TestEval(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "eval", "questions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var qs []evalQuestion
	if err := json.Unmarshal(data, &qs); err != nil {
		t.Fatal(err)
	}
	if len(qs) < 30 {
		t.Fatalf("the evaluation set has %d questions, want at least 30", len(qs))
	}
	full := os.Getenv("RGIT_EVAL") == "full"
	if !full {
		qs = slices.DeleteFunc(qs, func(q evalQuestion) bool { return q.FullOnly })
	}
	if gorootDir() == "" {
		t.Skip("go env GOROOT failed: the Go distribution's sources are needed")
	}
	corpora := evalCorpora(t, qs, full)
	if _, ok := corpora["go"]; !ok {
		t.Skip("the Go distribution's sources are not present")
	}
	// RGIT_EVAL_CACHE keeps the index cache across runs, RGIT_EVAL_ONLY
	// (a regular expression) asks only the matching questions, and
	// RGIT_EVAL_DUMP writes every report to that directory: for reading
	// the summaries as a user would while working on the researcher.
	cache := os.Getenv("RGIT_EVAL_CACHE")
	if cache == "" {
		cache = t.TempDir()
	}
	if only := os.Getenv("RGIT_EVAL_ONLY"); only != "" {
		re := regexp.MustCompile(only)
		qs = slices.DeleteFunc(qs, func(q evalQuestion) bool { return !re.MatchString(q.Question) })
	}
	dump := os.Getenv("RGIT_EVAL_DUMP")
	a := New(Options{CacheDir: cache})
	tallies := map[string]*evalTally{}
	tally := func(key string) *evalTally {
		if tallies[key] == nil {
			tallies[key] = &evalTally{}
		}
		return tallies[key]
	}
	for _, q := range qs {
		c, ok := corpora[corpusOf(q)]
		if !ok {
			continue
		}
		s := simulate(t, a, q.Question, c.dirs, 2, 1)
		if dump != "" {
			name := strings.Map(func(r rune) rune {
				if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
					return r
				}
				return '_'
			}, q.Question)
			if err := os.WriteFile(filepath.Join(dump, name[:min(len(name), 60)]+".md"), []byte(s.report), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cites := len(parseCitations(s.report))
		errs := VerifyCitations([]byte(s.report), c.dirs)
		if len(errs) > 0 {
			t.Errorf("%q: citations do not verify: %v", q.Question, errs)
		}
		srcs := reportSources(s.report, c.dirs)
		top := srcs[:min(5, len(srcs))]
		found, hit := 0, false
		for _, e := range q.Expected {
			abs := filepath.Join(c.base, filepath.FromSlash(e))
			if slices.Contains(top, abs) {
				found++
			}
			hit = hit || slices.Contains(srcs, abs)
		}
		r := float64(found) / float64(len(q.Expected))
		ans := answers(executiveSummary(s.report), q.Keys)
		for _, key := range []string{"all", "kind " + q.Kind, "corpus " + corpusOf(q)} {
			st := tally(key)
			st.n++
			st.recall += r
			st.citations += cites
			st.verifiedCites += cites - len(errs)
			if hit {
				st.hit++
			}
			if ans {
				st.answered++
			}
		}
		t.Logf("answer %-5v recall@5 %.2f hit %-5v %s", ans, r, hit, q.Question)
		if r == 0 || !ans {
			var rel []string
			for _, p := range top {
				rel = append(rel, strings.TrimPrefix(p, c.base+"/"))
			}
			t.Logf("    first sources: %v", rel)
		}
	}
	keys := make([]string, 0, len(tallies))
	for k := range tallies {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		t.Logf("%-12s %s", k, tallies[k])
	}
	all := tally("all")
	n := float64(all.n)
	if rate := float64(all.answered) / n; rate < minAnswerRate {
		t.Errorf("answer rate = %.3f, floor %.3f", rate, minAnswerRate)
	}
	if all.recall/n < minRecall {
		t.Errorf("recall@5 = %.3f, floor %.3f", all.recall/n, minRecall)
	}
}

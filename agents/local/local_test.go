package local

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
)

// notesCorpus is a small corpus of prose and code about lock fairness.
var notesCorpus = map[string]string{
	"fairness.md": "# Lock fairness\n\nA lock is fair when waiting goroutines are served in arrival order.\n" +
		"Unfair locks let new arrivals barge in, which can starve a waiter.\n\n" +
		"## Starvation\n\nStarvation happens when a waiter never acquires the lock.\n" +
		"A starvation mode hands ownership directly to the oldest waiter.\n",
	"spin.md": "# Spinning\n\nSpinning burns CPU while a goroutine waits for a lock to be released.\n" +
		"Active spinning is only worth it on multicore machines.\n",
	"queue.go": "package lock\n\n// waitQueue holds goroutines waiting for the lock in FIFO order.\n" +
		"// A waiter that waited too long is moved to the front to avoid starvation.\ntype waitQueue struct {\n" +
		"\titems []int\n}\n\n// push queues a waiter at the tail.\nfunc (q *waitQueue) push(w int) {\n\tq.items = append(q.items, w)\n}\n",
	"handoff.txt":  "Handoff: the unlocking goroutine passes ownership of the lock\nto the first waiter instead of releasing it.\n",
	"unrelated.md": "# Cooking\n\nBoil the pasta for ten minutes.\n",
}

func checkSections(t *testing.T, what, text string, sections ...string) {
	t.Helper()
	for _, s := range sections {
		if !hasHeading(text, s) {
			t.Errorf("%s lacks %q:\n%s", what, s, text)
		}
	}
}

func TestPhases(t *testing.T) {
	root := filepath.Join(t.TempDir(), "notes")
	writeFiles(t, root, notesCorpus)
	corpus := []string{root}
	for _, tc := range []struct{ breadth, depth int }{{1, 0}, {2, 1}, {3, 2}} {
		s := simulate(t, New(Options{CacheDir: t.TempDir()}), "How do locks avoid starving waiting goroutines?", corpus, tc.breadth, tc.depth)
		plan := parsePlan(t, s.plan)
		if len(plan) == 0 || len(plan) > tc.breadth {
			t.Errorf("breadth %d: plan has %d topics:\n%s", tc.breadth, len(plan), s.plan)
		}
		for _, p := range plan {
			if p.depth != 0 || len(p.criteria) == 0 || p.desc == "" {
				t.Errorf("breadth %d: bad plan topic %+v", tc.breadth, p)
			}
		}
		checkSections(t, "plan", s.plan, "# Research Plan", "## Metadata", "## Topics", "## Completion Status")
		for _, p := range s.progress {
			checkSections(t, "progress", p, "## Findings", "## Sources", "## Knowledge Gaps")
			if got := strings.Contains(p, "\n## Subtopics\n"); got && tc.depth == 0 {
				t.Errorf("depth 0: progress proposes subtopics:\n%s", p)
			}
			if errs := VerifyCitations([]byte(p), corpus); len(errs) > 0 {
				t.Errorf("progress citations: %v", errs)
			}
		}
		checkSections(t, "report", s.report, "## Executive Summary", "## Findings", "## Sources")
		if errs := VerifyCitations([]byte(s.report), corpus); len(errs) > 0 {
			t.Errorf("report citations: %v", errs)
		}
		if s.final.Verdict != "accept" {
			t.Errorf("final review: %+v", s.final)
		}
		if strings.Contains(s.report, "pasta") {
			t.Errorf("report quotes the unrelated file:\n%s", s.report)
		}
		if !strings.Contains(s.report, "notes/fairness.md:") || !strings.Contains(s.report, "is `"+root+"`") {
			t.Errorf("report does not cite fairness.md or name the root:\n%s", s.report)
		}
	}
}

func TestDeterministic(t *testing.T) {
	root := filepath.Join(t.TempDir(), "notes")
	writeFiles(t, root, notesCorpus)
	cache := t.TempDir()
	q := "How do locks avoid starving waiting goroutines?"
	first := simulate(t, New(Options{CacheDir: cache}), q, []string{root}, 2, 1)
	for _, name := range []string{"warm cache", "no cache"} {
		dir := cache
		if name == "no cache" {
			dir = ""
		}
		again := simulate(t, New(Options{CacheDir: dir}), q, []string{root}, 2, 1)
		if again.plan != first.plan || again.report != first.report || strings.Join(again.progress, "") != strings.Join(first.progress, "") {
			t.Errorf("%s: output differs from the first run", name)
		}
	}
}

// run1 runs one phase and returns its text.
func run1(t *testing.T, a *Agent, ph agents.Phase, out string, b agents.Brief) string {
	t.Helper()
	res, err := a.Run(context.Background(), agents.Task{Phase: ph, Dir: filepath.Dir(out), Output: out, Brief: b})
	if err != nil {
		t.Fatalf("%s: %v", ph, err)
	}
	return res.Text
}

func TestReviewRejectsWeakCriteria(t *testing.T) {
	root := filepath.Join(t.TempDir(), "notes")
	writeFiles(t, root, notesCorpus)
	dir := t.TempDir()
	a := New(Options{})
	b := agents.Brief{Question: "lock starvation", Breadth: 2, Depth: 0, Corpus: []string{root},
		Topic: "Starvation", Criteria: []string{"Quotes evidence on starvation", "Quotes evidence on quantum entanglement"}}
	progress := filepath.Join(dir, "p.md")
	text := run1(t, a, agents.PhaseResearch, progress, b)
	if !strings.Contains(text, "- Quotes evidence on quantum entanglement: ") {
		t.Errorf("Knowledge Gaps does not name the weak criterion:\n%s", text)
	}
	b.ReviewPath = progress
	var v verdict
	if err := json.Unmarshal([]byte(run1(t, a, agents.PhaseReview, filepath.Join(dir, "review.json"), b)), &v); err != nil {
		t.Fatal(err)
	}
	if v.Verdict != "reject" || len(v.Gaps) != 1 || !strings.Contains(v.Gaps[0], "quantum entanglement") {
		t.Errorf("verdict %+v, want a rejection naming the missing criterion", v)
	}
	b.Criteria = b.Criteria[:1]
	if err := json.Unmarshal([]byte(run1(t, a, agents.PhaseReview, filepath.Join(dir, "review.json"), b)), &v); err != nil {
		t.Fatal(err)
	}
	if v.Verdict != "accept" {
		t.Errorf("verdict %+v, want accept once the criterion is covered", v)
	}
	// A tampered quotation is caught by the review.
	data, _ := os.ReadFile(progress)
	tampered := strings.Replace(string(data), "Starvation happens", "Starvation never happens", 1)
	if tampered == string(data) {
		t.Fatalf("test corpus quote not found in:\n%s", data)
	}
	writeFiles(t, dir, map[string]string{"p.md": tampered})
	if err := json.Unmarshal([]byte(run1(t, a, agents.PhaseReview, filepath.Join(dir, "review.json"), b)), &v); err != nil {
		t.Fatal(err)
	}
	if v.Verdict != "reject" || !strings.Contains(strings.Join(v.Gaps, " "), "quoted text differs") {
		t.Errorf("verdict %+v, want a rejection for the tampered quotation", v)
	}
}

func TestFinalReviewAndRevise(t *testing.T) {
	root := filepath.Join(t.TempDir(), "notes")
	writeFiles(t, root, notesCorpus)
	corpus := []string{root}
	a := New(Options{})
	s := simulate(t, a, "How do locks avoid starving waiting goroutines?", corpus, 2, 0)
	dir := t.TempDir()
	report := filepath.Join(dir, "report.md")
	writeFiles(t, dir, map[string]string{"report.md": s.report})
	// The corpus changes under the report: fairness.md gains two lines at
	// the top (its quotations move) and handoff.txt is rewritten (its
	// quotation is gone).
	writeFiles(t, root, map[string]string{
		"fairness.md": "<!-- moved -->\n\n" + notesCorpus["fairness.md"],
		"handoff.txt": "Rewritten entirely.\n",
	})
	if !strings.Contains(s.report, "notes/handoff.txt:") {
		t.Fatalf("report does not quote handoff.txt:\n%s", s.report)
	}
	b := agents.Brief{Question: "q", Corpus: corpus, ReviewPath: report}
	var v verdict
	if err := json.Unmarshal([]byte(run1(t, a, agents.PhaseFinalReview, filepath.Join(dir, "review.json"), b)), &v); err != nil {
		t.Fatal(err)
	}
	if v.Verdict != "reject" || !strings.Contains(strings.Join(v.Gaps, "\n"), "notes/fairness.md:") {
		t.Fatalf("final review %+v, want a rejection naming the moved citations", v)
	}
	b.Gaps = v.Gaps
	revised := run1(t, a, agents.PhaseRevise, report, b)
	if errs := VerifyCitations([]byte(revised), corpus); len(errs) > 0 {
		t.Errorf("revised report still fails: %v\n%s", errs, revised)
	}
	if strings.Contains(revised, "notes/handoff.txt:") {
		t.Errorf("revise kept the unverifiable handoff.txt quotation:\n%s", revised)
	}
	if !strings.Contains(revised, "Starvation happens when a waiter never acquires the lock.") {
		t.Errorf("revise dropped a quotation it could relocate:\n%s", revised)
	}
	if err := json.Unmarshal([]byte(run1(t, a, agents.PhaseFinalReview, filepath.Join(dir, "review.json"), b)), &v); err != nil {
		t.Fatal(err)
	}
	if v.Verdict != "accept" {
		t.Errorf("final review after revise: %+v", v)
	}
}

func TestDefaultCorpusIsGitTracked(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	writeFiles(t, repo, map[string]string{
		".gitignore":               "private.md\n",
		"private.md":               "Starvation secrets of the lock.\n",
		"notes.md":                 "Starvation of a waiter on the lock.\n",
		"reports/old/report.md":    "Starvation report from an earlier session.\n",
		".research/s/progress.md":  "Starvation workspace.\n",
		"docs/starvation-notes.md": "Lock starvation explained.\n",
	})
	a := New(Options{})
	out := filepath.Join(repo, ".research", "s", "p.md")
	res, err := a.Run(context.Background(), agents.Task{Phase: agents.PhaseResearch, Root: repo, Dir: filepath.Dir(out), Output: out,
		Brief: agents.Brief{Question: "lock starvation", Topic: "Starvation", Criteria: []string{"Quotes evidence on starvation"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"private.md", "reports/old", ".research"} {
		if strings.Contains(res.Text, bad+"/") || strings.Contains(res.Text, "/"+bad+":") {
			t.Errorf("default corpus includes %s:\n%s", bad, res.Text)
		}
	}
	if !strings.Contains(res.Text, "/notes.md:1-1`") {
		t.Errorf("default corpus misses notes.md:\n%s", res.Text)
	}
	if len(res.Files) != 1 || res.Files[0] != "p.md" {
		t.Errorf("Result.Files = %q, want [p.md]", res.Files)
	}
}

func TestRunErrors(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"a.md": "alpha\n"})
	dir := t.TempDir()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		task agents.Task
	}{
		{"cancelled", cancelled, agents.Task{Phase: agents.PhasePlan, Output: filepath.Join(dir, "p.md"), Brief: agents.Brief{Corpus: []string{root}}}},
		{"no corpus", context.Background(), agents.Task{Phase: agents.PhasePlan, Output: filepath.Join(dir, "p.md")}},
		{"missing corpus", context.Background(), agents.Task{Phase: agents.PhasePlan, Brief: agents.Brief{Corpus: []string{filepath.Join(root, "nope")}}}},
		{"review without file", context.Background(), agents.Task{Phase: agents.PhaseReview, Brief: agents.Brief{Corpus: []string{root}}}},
		{"unknown phase", context.Background(), agents.Task{Phase: "dance", Brief: agents.Brief{Corpus: []string{root}}}},
	}
	for _, tt := range tests {
		if _, err := New(Options{}).Run(tt.ctx, tt.task); err == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "p.md")); err == nil {
		t.Error("a failed call wrote its output")
	}
}

func TestConcurrentRuns(t *testing.T) {
	root := filepath.Join(t.TempDir(), "notes")
	writeFiles(t, root, notesCorpus)
	a := New(Options{CacheDir: t.TempDir()})
	dir := t.TempDir()
	outs := make([]string, 4)
	errs := make(chan error, len(outs))
	for i := range outs {
		go func() {
			out := filepath.Join(dir, strings.Repeat("x", i+1)+".md")
			res, err := a.Run(context.Background(), agents.Task{Phase: agents.PhaseResearch, Output: out,
				Brief: agents.Brief{Question: "lock starvation", Topic: "Starvation", Corpus: []string{root}}})
			outs[i] = res.Text
			errs <- err
		}()
	}
	for range outs {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for i := range outs {
		if outs[i] == "" || outs[i] != outs[0] {
			t.Errorf("run %d differs from run 0:\n%s\n---\n%s", i, outs[i], outs[0])
		}
	}
}

// TestNoEvidence: a question the corpus says nothing about fails its
// research call (the loop retries it and then marks the topic
// #RETRY_EXHAUSTED) instead of quoting what shares a common word.
func TestNoEvidence(t *testing.T) {
	root := filepath.Join(t.TempDir(), "notes")
	files := map[string]string{"work.md": "# Work\n\nWork on the lock goes on in the queue.\n"}
	for k, v := range notesCorpus {
		files[k] = v
	}
	writeFiles(t, root, files)
	a := New(Options{})
	dir := t.TempDir()
	for _, tc := range []struct {
		question string
		evidence bool
	}{
		{"How do tides work?", false},
		{"What is the capital of France?", false},
		{"How do locks avoid starving waiting goroutines?", true},
	} {
		b := agents.Brief{Question: tc.question, Topic: tc.question, Breadth: 1, Corpus: []string{root}}
		out := filepath.Join(dir, "progress.md")
		os.Remove(out)
		_, err := a.Run(context.Background(), agents.Task{Phase: agents.PhaseResearch, Dir: dir, Output: out, Brief: b})
		if tc.evidence {
			if err != nil {
				t.Errorf("%q: %v", tc.question, err)
			}
			continue
		}
		if err == nil || !errors.Is(err, agents.ErrBadOutput) || !strings.Contains(err.Error(), NoEvidence) {
			t.Errorf("%q: error %v, want %q (agents.ErrBadOutput)", tc.question, err, NoEvidence)
		}
		if _, statErr := os.Stat(out); statErr == nil {
			t.Errorf("%q: a progress file was written with no evidence", tc.question)
		}
		// The report of a session whose topics all failed quotes nothing,
		// not even the passage that shares "work" with the question.
		sb := b
		sb.Topics = []agents.TopicRef{{Name: tc.question, Exhausted: true}}
		report := run1(t, a, agents.PhaseSynthesize, filepath.Join(dir, "report.md"), sb)
		if !strings.Contains(report, "No evidence found in the corpus") || len(parseCitations(report)) > 0 {
			t.Errorf("%q: report of a session without evidence:\n%s", tc.question, report)
		}
	}
}

// TestSkipsOwnWorkspace: with the repository as the corpus, rgit's own
// .research workspace and reports are never indexed or quoted.
func TestSkipsOwnWorkspace(t *testing.T) {
	repo := t.TempDir()
	writeFiles(t, repo, map[string]string{
		"notes.md":                "# Locks\n\nA fair lock hands ownership to the oldest waiter.\n",
		".research/s/progress.md": "# Tides\n\nTides follow the moon.\n",
		"reports/s/report.md":     "# How do tides work?\n\nTides follow the moon's gravity.\n",
		"reports/other/report.md": "Tides rise twice a day.\n",
	})
	a := New(Options{})
	b := agents.Brief{Question: "How do tides work?", Topic: "How do tides work?", Breadth: 1}
	_, err := a.Run(context.Background(), agents.Task{Phase: agents.PhaseResearch, Dir: repo, Root: repo,
		Output: filepath.Join(t.TempDir(), "p.md"), Brief: b})
	if err == nil || !strings.Contains(err.Error(), NoEvidence) {
		t.Errorf("research over the repository quoted rgit's own output: %v", err)
	}
}

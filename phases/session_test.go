package phases

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/phases/layout"
)

// A rejected final review sends the report to REVISE; the history says so.
func TestFinalReviewRevise(t *testing.T) {
	dir := testRepo(t)
	a := &scripted{name: "fake", rejectFinal: true}
	var events []Event
	sum, err := Research(context.Background(), withDir(Config{Topic: "Why?", Breadth: 1, Depth: 0, Model: "fake", ReviewModel: "fake"}, dir), fakeDeps(a, &events))
	if err != nil || !sum.Finished {
		t.Fatalf("%v %+v", err, sum)
	}
	log := gitIn(t, dir, "log", "--format=%s", "research/why")
	for _, want := range []string{"final-review: report rejected", "revise: report answers the final review"} {
		if !strings.Contains(log, want) {
			t.Errorf("history lacks %q:\n%s", want, log)
		}
	}
	if body := gitIn(t, dir, "log", "-1", "--format=%B", "research/why~1"); !strings.Contains(body, "- compare the basins") {
		t.Errorf("revise commit does not list the gaps:\n%s", body)
	}
}

// When synthesis fails on every agent, rgit compiles the report from the
// progress files; when the final review fails, the report is kept.
func TestSynthesisFallsBackToCompiledReport(t *testing.T) {
	dir := testRepo(t)
	a := &scripted{name: "fake", failing: func(task agents.Task) error {
		if task.Phase == agents.PhaseSynthesize || task.Phase == agents.PhaseFinalReview {
			return &agents.CallError{Backend: "fake", Msg: "down", Exit: 1}
		}
		return nil
	}}
	var events []Event
	sum, err := Research(context.Background(), withDir(Config{Topic: "Why?", Breadth: 2, Depth: 0, Model: "fake", ReviewModel: "fake"}, dir), fakeDeps(a, &events))
	if err != nil || !sum.Finished {
		t.Fatalf("%v %+v", err, sum)
	}
	report := gitIn(t, dir, "show", "main:reports/why/report.md")
	for _, want := range []string{"compiled by rgit", "### Root 1", "finding about Root 2", "## Sources\n\n1. https://example.org/6", "## Methodology"} {
		if !strings.Contains(report, want) {
			t.Errorf("compiled report lacks %q:\n%s", want, report)
		}
	}
}

// Resuming checks what it resumes: a missing session, another topic under
// the same name; and a confirmation for a large tree.
func TestStartChecks(t *testing.T) {
	dir := testRepo(t)
	var events []Event
	deps := fakeDeps(&scripted{name: "fake"}, &events)
	_, err := Research(context.Background(), withDir(resumeCfg("nothing"), dir), deps)
	assertBad(t, err, `no session named "nothing" to resume`)
	if _, err := Research(context.Background(), withDir(Config{Topic: "Why?", Breadth: 1, Model: "fake", ReviewModel: "fake"}, dir), deps); err != nil {
		t.Fatal(err)
	}
	_, err = Research(context.Background(), withDir(Config{Topic: "Other?", Name: "why", Breadth: 1}, dir), deps)
	assertBad(t, err, `session "why" already researches "Why?"`)

	big := withDir(Config{Topic: "Big?", Breadth: 3, Depth: 3, Model: "fake", ReviewModel: "fake"}, dir)
	_, err = Research(context.Background(), big, deps)
	assertBad(t, err, "no terminal to confirm")
	asked := ""
	deps.Confirm = func(q string) (bool, error) { asked = q; return false, nil }
	if _, err = Research(context.Background(), big, deps); !errors.Is(err, ErrCancelled) || !strings.Contains(asked, "up to 86 iterations") {
		t.Errorf("declined: %v, asked %q", err, asked)
	}
	deps.Confirm = func(string) (bool, error) { return false, errors.New("tty gone") }
	if _, err = Research(context.Background(), big, deps); err == nil || !strings.Contains(err.Error(), "confirm: tty gone") {
		t.Errorf("confirm error: %v", err)
	}
	if out := gitIn(t, dir, "for-each-ref", "--format=%(refname)", "refs/heads/research/"); out != "refs/heads/research/why" {
		t.Errorf("refused starts wrote refs: %s", out)
	}
}

func assertBad(t *testing.T, err error, has string) {
	t.Helper()
	var bad *BadInputError
	if !errors.As(err, &bad) || !strings.Contains(err.Error(), has) {
		t.Fatalf("err = %v, want bad input %q", err, has)
	}
}

// A plan on the branch that does not parse is reported with its file.
func TestResumeBadPlan(t *testing.T) {
	dir := testRepo(t)
	var events []Event
	deps := fakeDeps(&scripted{name: "fake", failing: func(task agents.Task) error {
		if task.Phase == agents.PhaseReview {
			return &agents.CallError{Backend: "fake", Kind: agents.ErrAuth}
		}
		return nil
	}}, &events)
	if _, err := Research(context.Background(), withDir(Config{Topic: "Why?", Breadth: 1, Model: "fake", ReviewModel: "fake"}, dir), deps); !errors.Is(err, agents.ErrAuth) {
		t.Fatalf("first run: %v", err)
	}
	// Break the plan on the branch, as a foreign edit would.
	plan := filepath.Join(dir, ".research", "why", layout.PlanFile)
	if err := os.WriteFile(plan, []byte("# Research Plan\n\n## Topics\n\n### A (Depth: 7)\n- Status: Sideways\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := openGit(dir)
	if err != nil {
		t.Fatal(err)
	}
	lay := layout.New(s.Root(), "why")
	if _, err := (&committer{store: s, lay: lay, token: "t", clock: FixedClock(testNow), head: gitIn(t, dir, "rev-parse", "research/why")}).
		write(context.Background(), mustState(t, dir), nil, record{phase: PhaseResearch, summary: "broken plan"}, nil); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err = Research(context.Background(), withDir(resumeCfg("why"), dir), deps)
	assertBad(t, err, layout.PlanFile)
}

func mustState(t *testing.T, dir string) *State {
	t.Helper()
	data, err := exec.Command("git", "-C", dir, "show", "research/why:.research/why/state.json").Output()
	if err != nil {
		t.Fatal(err)
	}
	st, err := ParseState("state.json", data)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// Outside a repository rgit refuses as bad input and creates nothing: it
// never runs git init for the user.
func TestRefusesOutsideRepository(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	var events []Event
	_, err := Research(context.Background(), withDir(Config{Topic: "Why?", Breadth: 1, Model: "fake", ReviewModel: "fake", NoMerge: true}, dir),
		fakeDeps(&scripted{name: "fake"}, &events))
	assertBad(t, err, "is not in a git repository")
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("refused run left %v", ents)
	}
}

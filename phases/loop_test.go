package phases

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/phases/layout"
)

// scripted is a tiny agent for loop tests: it follows the phase contract,
// and fails the phases and topics it is told to.
type scripted struct {
	name string
	mu   sync.Mutex
	// failing returns an error for a task, or nil to answer it properly.
	failing func(task agents.Task) error
	calls   []string
	reject  bool // reject every topic review
	// rejectTopic rejects every review of this one topic.
	rejectTopic string
	// rejectFinal rejects the first final review, so the report is revised.
	rejectFinal bool
}

func (s *scripted) Name() string { return s.name }

func (s *scripted) Run(ctx context.Context, task agents.Task) (agents.Result, error) {
	s.mu.Lock()
	s.calls = append(s.calls, fmt.Sprintf("%s:%s", task.Phase, task.Brief.Topic))
	s.mu.Unlock()
	if s.failing != nil {
		if err := s.failing(task); err != nil {
			return agents.Result{}, err
		}
	}
	write := func(body string) error { return os.WriteFile(task.Output, []byte(body), 0o644) }
	b := task.Brief
	switch task.Phase {
	case agents.PhasePlan:
		var sb strings.Builder
		sb.WriteString("# Research Plan\n\n## Metadata\n- Topic: " + b.Question + "\n- Breadth: " + fmt.Sprint(b.Breadth) + "\n- Depth: " + fmt.Sprint(b.Depth) + "\n\n## Topics\n\n")
		for i := 0; i < b.Breadth; i++ {
			fmt.Fprintf(&sb, "### Root %d (Depth: 0)\n- Status: Pending\n- Description: part %d\n- Acceptance Criteria:\n  - covered\n\n", i+1, i+1)
		}
		return agents.Result{}, write(sb.String())
	case agents.PhaseResearch:
		body := "# Progress: " + b.Topic + "\n\n## Findings\n- finding about " + b.Topic + " [1]\n\n## Sources\n1. https://example.org/" + fmt.Sprint(len(b.Topic)) + "\n\n## Knowledge Gaps\n- none\n"
		if b.CanSubdivide {
			body += "\n## Subtopics\n- " + b.Topic + " detail: deeper\n  - explained\n"
		}
		// It "fetched" the page it cites: the citation gate wants that.
		fetched := []agents.Source{{URL: "https://example.org/" + fmt.Sprint(len(b.Topic)), Text: "page"}}
		return agents.Result{Usage: agents.Usage{InputTokens: 10, OutputTokens: 5}, Sources: fetched}, write(body)
	case agents.PhaseReview, agents.PhaseFinalReview:
		v, _ := json.Marshal(Decision{Verdict: "accept", Summary: "fine"})
		if (s.reject || (s.rejectTopic != "" && s.rejectTopic == b.Topic)) && task.Phase == agents.PhaseReview {
			v, _ = json.Marshal(Decision{Verdict: "reject", Summary: "thin", Gaps: []string{"more sources"}})
		}
		if s.rejectFinal && task.Phase == agents.PhaseFinalReview {
			s.rejectFinal = false
			v, _ = json.Marshal(Decision{Verdict: "reject", Summary: "uneven", Gaps: []string{"compare the basins"}})
		}
		return agents.Result{Text: string(v)}, nil
	case agents.PhaseSynthesize, agents.PhaseRevise:
		return agents.Result{Sources: []agents.Source{{URL: "https://example.org", Text: "page"}}},
			write("# Report\n\n## Executive Summary\nsum\n\n## Findings\nall\n\n## Sources\n1. https://example.org\n")
	}
	return agents.Result{}, fmt.Errorf("unexpected phase %s", task.Phase)
}

func testRepo(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"commit", "-q", "--allow-empty", "-m", "start"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

func runWith(t *testing.T, dir string, cfg Config, byName map[string]agents.Agent) (Summary, []Event, error) {
	t.Helper()
	var events []Event
	cfg.Dir = dir
	deps := Deps{
		NewAgent: func(spec string) (agents.Agent, error) {
			if a, ok := byName[spec]; ok {
				return a, nil
			}
			return nil, fmt.Errorf("no agent %q", spec)
		},
		Reporter: ReporterFunc(func(e Event) { events = append(events, e) }),
	}
	sum, err := Research(context.Background(), cfg, deps)
	return sum, events, err
}

func TestLoopCompletesAndMerges(t *testing.T) {
	dir := testRepo(t)
	a := &scripted{name: "fake"}
	sum, _, err := runWith(t, dir, Config{Topic: "Why?", Breadth: 2, Depth: 1, Model: "fake", ReviewModel: "fake"}, map[string]agents.Agent{"fake": a})
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Finished || sum.Total != 4 || sum.Complete != 4 || sum.Target != "main" {
		t.Fatalf("summary %+v", sum)
	}
	if _, err := os.Stat(filepath.Join(dir, "reports", "why", "report.md")); err != nil {
		t.Fatalf("report not in the checked-out main: %v", err)
	}
}

// A topic whose research fails on every attempt of every agent is marked
// #RETRY_EXHAUSTED and the loop goes on to a report.
func TestExhaustedTopicLoopGoesOn(t *testing.T) {
	dir := testRepo(t)
	bad := func(task agents.Task) error {
		if task.Phase == agents.PhaseResearch && task.Brief.Topic == "Root 2" {
			return &agents.CallError{Backend: "fake", Msg: "boom", Exit: 1}
		}
		return nil
	}
	a := &scripted{name: "fake", failing: bad}
	b := &scripted{name: "backup", failing: bad}
	sum, _, err := runWith(t, dir, Config{Topic: "Why?", Breadth: 2, Depth: 0, Model: "fake", ReviewModel: "fake", Fallback: []string{"backup"}},
		map[string]agents.Agent{"fake": a, "backup": b})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Exhausted) != 1 || sum.Exhausted[0] != "Root 2" || !sum.Finished {
		t.Fatalf("summary %+v", sum)
	}
	if n := strings.Count(strings.Join(b.calls, ","), "research:Root 2"); n != maxRetries+1 {
		t.Errorf("fallback agent got %d attempts at Root 2, want %d", n, maxRetries+1)
	}
	report, _ := os.ReadFile(filepath.Join(dir, "reports", "why", "report.md"))
	if !strings.Contains(string(report), "#RETRY_EXHAUSTED") || !strings.Contains(string(report), "Root 2") {
		t.Errorf("report methodology does not list the exhausted topic:\n%s", report)
	}
}

// Two timeouts of one backend move the rest of the session to the next
// agent, recorded in state.json.
func TestTimeoutsSwitchBackend(t *testing.T) {
	dir := testRepo(t)
	slow := &scripted{name: "slow", failing: func(task agents.Task) error {
		return &agents.CallError{Backend: "slow", Kind: agents.ErrTimeout}
	}}
	fast := &scripted{name: "fast"}
	_, _, err := runWith(t, dir, Config{Topic: "Why?", Breadth: 1, Depth: 0, Model: "slow", ReviewModel: "fast", Fallback: []string{"fast"}},
		map[string]agents.Agent{"slow": slow, "fast": fast})
	if err != nil {
		t.Fatal(err)
	}
	if len(slow.calls) != timeoutsBeforeSwitch {
		t.Errorf("slow agent called %d times, want %d before the switch", len(slow.calls), timeoutsBeforeSwitch)
	}
	out, err := exec.Command("git", "-C", dir, "show", "research/why:.research/why/state.json").Output()
	if err != nil {
		t.Fatal(err)
	}
	st, err := ParseState("state.json", out)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Switches) != 1 || st.Switches[0].From != "slow" || st.Switches[0].To != "fast" {
		t.Errorf("switches %+v", st.Switches)
	}
}

// An auth error stops the session at once; it stays resumable.
func TestAuthErrorStops(t *testing.T) {
	dir := testRepo(t)
	a := &scripted{name: "fake", failing: func(task agents.Task) error {
		if task.Phase == agents.PhaseResearch {
			return &agents.CallError{Backend: "fake", Kind: agents.ErrAuth, Msg: "not logged in"}
		}
		return nil
	}}
	_, _, err := runWith(t, dir, Config{Topic: "Why?", Breadth: 1, Depth: 0, Model: "fake", ReviewModel: "fake"}, map[string]agents.Agent{"fake": a})
	if err == nil || !strings.Contains(err.Error(), "not logged in") {
		t.Fatalf("err = %v, want the auth error", err)
	}
	if len(a.calls) != 2 {
		t.Errorf("calls %v: an auth error must not be retried", a.calls)
	}
	if _, err := os.Stat(filepath.Join(dir, ".research", "why", layout.LockFile)); !os.IsNotExist(err) {
		t.Errorf("lock left behind: %v", err)
	}
}

// An agent that writes outside the workspace fails the phase's gate.
func TestOutsideWritesGate(t *testing.T) {
	dir := testRepo(t)
	n := 0
	a := &scripted{name: "wild", failing: func(task agents.Task) error {
		if task.Phase == agents.PhaseResearch && n == 0 {
			n++
			return os.WriteFile(filepath.Join(task.Root, "stray.txt"), []byte("x"), 0o644)
		}
		return nil
	}}
	sum, _, err := runWith(t, dir, Config{Topic: "Why?", Breadth: 1, Depth: 0, Model: "wild", ReviewModel: "wild"}, map[string]agents.Agent{"wild": a})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Retried < 1 {
		t.Errorf("writing outside the workspace did not fail the phase (retried %d)", sum.Retried)
	}
}

// A secret in the environment never reaches a commit, state.json or the
// recovery notes, even when an agent's error or output contains it.
func TestSecretsRedacted(t *testing.T) {
	const secret = "sk-test-0123456789abcdef"
	t.Setenv("OPENAI_API_KEY", secret)
	dir := testRepo(t)
	n := 0
	a := &scripted{name: "leaky", failing: func(task agents.Task) error {
		if task.Phase == agents.PhaseResearch && n == 0 {
			n++
			return &agents.CallError{Backend: "leaky", Msg: "bad key " + secret, Exit: 1}
		}
		return nil
	}}
	leakOut := &leakyOutput{scripted: a, secret: secret}
	if _, _, err := runWith(t, dir, Config{Topic: "Why?", Breadth: 1, Depth: 0, Model: "leaky", ReviewModel: "leaky"}, map[string]agents.Agent{"leaky": leakOut}); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "-C", dir, "log", "-p", "--all", "--format=%B").CombinedOutput()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), secret) {
		t.Error("secret found in git history")
	}
	if !strings.Contains(string(out), "[redacted]") {
		t.Error("expected the redacted marker where the secret was")
	}
}

type leakyOutput struct {
	*scripted
	secret string
}

func (l *leakyOutput) Run(ctx context.Context, task agents.Task) (agents.Result, error) {
	res, err := l.scripted.Run(ctx, task)
	if err == nil && task.Phase == agents.PhaseResearch {
		f, _ := os.OpenFile(task.Output, os.O_APPEND|os.O_WRONLY, 0o644)
		fmt.Fprintf(f, "\nkey used: %s\n", l.secret)
		f.Close()
	}
	return res, err
}

// Reaching the iteration limit still runs the final cycle and puts the
// seed's warning banner, with the real counts, on top of the report. A
// resume with a higher --max-iterations researches the unfinished topic and
// synthesizes again: the banner is updated, then gone once it is done.
func TestIterationLimitBannerAndResume(t *testing.T) {
	dir := testRepo(t)
	a := &scripted{name: "picky", rejectTopic: "Root 2"}
	agentsByName := map[string]agents.Agent{"picky": a}
	sum, _, err := runWith(t, dir, Config{Topic: "Why?", Breadth: 2, Depth: 0, Model: "picky", ReviewModel: "picky"}, agentsByName)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.LimitReached || sum.Iterations != 7 || !strings.Contains(sum.Warning, "iteration limit reached (7 of 7)") || !sum.Finished {
		t.Fatalf("summary %+v", sum)
	}
	reportPath := filepath.Join(dir, "reports", "why", "report.md")
	wantTop := func(wants ...string) {
		t.Helper()
		report, err := os.ReadFile(reportPath)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range wants {
			if !strings.HasPrefix(string(report), "---\n") || !strings.Contains(string(report), want) {
				t.Errorf("report lacks %q at the top:\n%.600s", want, report)
			}
		}
		if n := strings.Count(string(report), "WARNING:"); n != 1 {
			t.Errorf("report has %d banners, want 1", n)
		}
	}
	wantTop("WARNING: ITERATION LIMIT REACHED", "Topics completed: 1 of 2", "Iterations executed: 7 (limit: 7)")

	resume := Config{Name: "why", Resume: true, Breadth: 3, Depth: 3, Model: "auto", ReviewModel: "auto"}
	resume.MaxIterations = 9 // below the default tree's minimum; the session's own (2^1+5 = 7) decides
	sum, _, err = runWith(t, dir, resume, agentsByName)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Iterations != 9 || sum.MaxIter != 9 || !sum.LimitReached || !sum.Finished {
		t.Fatalf("resumed summary %+v", sum)
	}
	wantTop("Topics completed: 1 of 2", "Iterations executed: 9 (limit: 9)")

	a.rejectTopic = ""
	resume.MaxIterations = 12
	sum, _, err = runWith(t, dir, resume, agentsByName)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Complete != 2 || sum.LimitReached || sum.Warning != "" || !sum.Finished || sum.Target != "main" {
		t.Fatalf("third run summary %+v", sum)
	}
	report, _ := os.ReadFile(reportPath)
	if strings.Contains(string(report), "WARNING") {
		t.Errorf("banner left on a finished report:\n%.300s", report)
	}
}

// A spent --time budget before any topic was accepted is a failure: nothing
// merged, the session resumable, and a resume with a new --time finishes.
func TestTimeBudget(t *testing.T) {
	dir := testRepo(t)
	before := gitOut(t, dir, "rev-parse", "main")
	a := &scripted{name: "fake"}
	_, _, err := runWith(t, dir, Config{Topic: "Why?", Breadth: 2, Depth: 1, Model: "fake", ReviewModel: "fake", TimeBudget: time.Nanosecond},
		map[string]agents.Agent{"fake": a})
	var rf *ResearchFailedError
	if !errors.As(err, &rf) || rf.Limit != LimitTime {
		t.Fatalf("err = %v, want a ResearchFailedError at the time budget", err)
	}
	if strings.Contains(strings.Join(a.calls, ","), "research:") {
		t.Errorf("researched past the budget: %v", a.calls)
	}
	if got := gitOut(t, dir, "rev-parse", "main"); got != before {
		t.Errorf("main moved to %s", got)
	}
	sum, _, err := runWith(t, dir, Config{Name: "why", Resume: true, Breadth: 3, Depth: 3, TimeBudget: time.Hour}, map[string]agents.Agent{"fake": a})
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Finished || sum.LimitReached || sum.Complete != sum.Total || sum.Target != "main" {
		t.Fatalf("resumed summary %+v", sum)
	}
}

// Research that fails on every topic is a failure naming the agent and its
// last error; nothing is merged, and a resume retries the failed topics.
func TestAllResearchFailed(t *testing.T) {
	dir := testRepo(t)
	before := gitOut(t, dir, "rev-parse", "main")
	broken := &scripted{name: "broken", failing: func(task agents.Task) error {
		if task.Phase == agents.PhaseResearch {
			return errors.New("corpus is empty")
		}
		return nil
	}}
	_, _, err := runWith(t, dir, Config{Topic: "Why?", Breadth: 2, Depth: 0, Model: "broken", ReviewModel: "broken"}, map[string]agents.Agent{"broken": broken})
	var rf *ResearchFailedError
	if !errors.As(err, &rf) || rf.Exhausted != 2 || rf.Agent != "broken" || !strings.Contains(err.Error(), "corpus is empty") {
		t.Fatalf("err = %v (%+v)", err, rf)
	}
	if got := gitOut(t, dir, "rev-parse", "main"); got != before {
		t.Errorf("main moved to %s", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "reports", "why", "report.md")); err == nil {
		t.Error("a report was written")
	}
	fixed := &scripted{name: "broken"}
	sum, _, err := runWith(t, dir, Config{Name: "why", Resume: true, Breadth: 3, Depth: 3}, map[string]agents.Agent{"broken": fixed})
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Finished || sum.Complete != 2 || len(sum.Exhausted) != 0 || sum.Target != "main" {
		t.Fatalf("resumed summary %+v", sum)
	}
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return strings.TrimSpace(string(out))
}

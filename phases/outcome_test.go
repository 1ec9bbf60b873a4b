package phases

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

// steppingClock moves only when told: each agent call takes a minute.
type steppingClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *steppingClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *steppingClock) step(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

type slowAgent struct {
	*scripted
	clock *steppingClock
}

func (a slowAgent) Run(ctx context.Context, task agents.Task) (agents.Result, error) {
	a.clock.step(time.Minute)
	return a.scripted.Run(ctx, task)
}

// A --time budget that runs out after one accepted topic: the report's
// banner says TIME BUDGET with the time used and the budget, the summary
// says the same, and the session still merges (exit 0).
func TestTimeBudgetBanner(t *testing.T) {
	dir := testRepo(t)
	clock := &steppingClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	a := slowAgent{&scripted{name: "slow"}, clock}
	deps := Deps{NewAgent: func(string) (agents.Agent, error) { return a, nil }, Clock: clock}
	cfg := Config{Dir: dir, Topic: "Why?", Breadth: 2, Depth: 0, Model: "slow", ReviewModel: "slow", TimeBudget: 4 * time.Minute}
	sum, err := Research(context.Background(), cfg, deps)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.LimitReached || sum.Complete != 1 || sum.Target != "main" ||
		!strings.Contains(sum.Warning, "time budget 4m0s reached after 3m0s: 1 of 2 topics complete") {
		t.Fatalf("summary %+v", sum)
	}
	report, err := os.ReadFile(filepath.Join(dir, "reports", "why", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"WARNING: TIME BUDGET REACHED", "Topics completed: 1 of 2", "Time used: 3m0s (budget: 4m0s)",
		"resume with a new --time budget: rgit research --name why --resume"} {
		if !strings.HasPrefix(string(report), bannerPrefix) || !strings.Contains(string(report), want) {
			t.Errorf("report lacks %q at the top:\n%.600s", want, report)
		}
	}
	if strings.Contains(string(report), "ITERATION LIMIT") {
		t.Error("a time budget reported as the iteration limit")
	}
}

// reportsModel is an agent whose backend says which model it ran, as
// Claude Code's init line does when no model was named.
type reportsModel struct{ *scripted }

func (a reportsModel) Run(ctx context.Context, task agents.Task) (agents.Result, error) {
	res, err := a.scripted.Run(ctx, task)
	res.Model = "claude-opus-4-6"
	return res, err
}

// An agent named without a model (auto's "claude") is recorded with the
// model its CLI reported: in every Rgit-Model trailer, state.json and the
// methodology.
func TestReportedModelRecorded(t *testing.T) {
	dir := testRepo(t)
	a := reportsModel{&scripted{name: "claude"}}
	_, _, err := runWith(t, dir, Config{Topic: "Why?", Breadth: 1, Depth: 0, Model: "claude", ReviewModel: "claude"}, map[string]agents.Agent{"claude": a, "claude:claude-opus-4-6": a})
	if err != nil {
		t.Fatal(err)
	}
	models := gitOut(t, dir, "log", "--format=%(trailers:key=Rgit-Model,valueonly)", "research/why")
	for _, line := range strings.Fields(models) {
		if line != "claude:claude-opus-4-6" {
			t.Errorf("Rgit-Model %q, want claude:claude-opus-4-6", line)
		}
	}
	state := gitOut(t, dir, "show", "research/why:.research/why/state.json")
	for _, want := range []string{`"claude": "claude:claude-opus-4-6"`, `"model": "claude:claude-opus-4-6"`, `"review_model": "claude:claude-opus-4-6"`} {
		if !strings.Contains(state, want) {
			t.Errorf("state.json lacks %s", want)
		}
	}
	if report := gitOut(t, dir, "show", "main:reports/why/report.md"); !strings.Contains(report, "Agents: research claude:claude-opus-4-6, review claude:claude-opus-4-6.") {
		t.Errorf("methodology:\n%s", report)
	}
}

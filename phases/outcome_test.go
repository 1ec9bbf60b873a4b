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

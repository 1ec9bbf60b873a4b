package phases

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/mock"
)

// recorder wraps an agent and keeps every task it was given.
type recorder struct {
	agents.Agent
	mu        sync.Mutex
	tasks     []agents.Task
	noSession bool // drop the session id, as a backend that cannot resume would
}

func (r *recorder) Run(ctx context.Context, t agents.Task) (agents.Result, error) {
	r.mu.Lock()
	r.tasks = append(r.tasks, t)
	r.mu.Unlock()
	res, err := r.Agent.Run(ctx, t)
	if r.noSession {
		res.SessionID = ""
	}
	return res, err
}

// A member keeps its conversation between research iterations where its
// backend returns one, and is given its current report where it does not;
// refinement and ranking start fresh.
func TestCouncilMemberContext(t *testing.T) {
	for _, noSession := range []bool{false, true} {
		dir := testRepo(t)
		rec := &recorder{Agent: mock.New(mock.Options{}), noSession: noSession}
		deps := Deps{NewAgent: func(string) (agents.Agent, error) { return rec, nil }, Clock: FixedClock(testNow)}
		if _, err := Research(context.Background(), councilCfg(dir, "mock:alpha", "mock:beta"), deps); err != nil {
			t.Fatal(err)
		}
		var alpha []agents.Task
		for _, task := range rec.tasks {
			if task.Model == "alpha" && task.Brief.Council != nil && task.Brief.Council.Member == "mock-alpha" {
				alpha = append(alpha, task)
			}
		}
		if len(alpha) != mock.MemberRounds("How do tides work?", "mock-alpha")+2 {
			t.Fatalf("alpha made %d calls", len(alpha))
		}
		resumed := ""
		for i, task := range alpha {
			switch {
			case task.Phase != PhaseMemberResearch:
				if task.SessionID != "" {
					t.Errorf("%s resumed conversation %q; it must start fresh", task.Phase, task.SessionID)
				}
			case i == 0:
				if task.SessionID != "" || strings.Contains(task.Prompt, "Your report so far") {
					t.Errorf("first iteration: session %q", task.SessionID)
				}
			case noSession:
				if task.SessionID != "" || !strings.Contains(task.Prompt, "Your report so far") {
					t.Errorf("iteration %d without a conversation is not given its report", i+1)
				}
			default:
				if resumed == "" {
					resumed = task.SessionID
				}
				if task.SessionID == "" || task.SessionID != resumed || strings.Contains(task.Prompt, "Your report so far") {
					t.Errorf("iteration %d: session %q (first resumed %q), report in prompt %v", i+1, task.SessionID, resumed, strings.Contains(task.Prompt, "Your report so far"))
				}
			}
		}
	}
}

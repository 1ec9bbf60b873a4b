package phases

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/phases/plan"
	"github.com/rgit-dev/rgit/prompts"
)

// newTestRunner is a callRunner over a temporary workspace with agents by
// spec, a fixed clock and an event recorder.
func newTestRunner(t *testing.T, byName map[string]agents.Agent) (*callRunner, *[]Event) {
	t.Helper()
	lay := layout.New(t.TempDir(), "s")
	if err := os.MkdirAll(lay.File(layout.ProgressDir), 0o755); err != nil {
		t.Fatal(err)
	}
	var events []Event
	return &callRunner{
		agents: &agentPool{newAgent: func(spec string) (agents.Agent, error) {
			if a, ok := byName[spec]; ok {
				return a, nil
			}
			return nil, fmt.Errorf("no agent %q", spec)
		}},
		tmpl: prompts.Default(), lay: lay, clock: FixedClock(testNow),
		reporter: ReporterFunc(func(e Event) { events = append(events, e) }),
	}, &events
}

// A research step reads only its inputs and returns its result: the
// progress file, subtopics, summary and every attempt; the inputs are not
// changed, and applying the result is what moves the state.
func TestResearchStepIsPure(t *testing.T) {
	a := &scripted{name: "fake"}
	withSession := &sessionAgent{Agent: a, id: "conv-1"}
	cr, events := newTestRunner(t, map[string]agents.Agent{"fake": withSession})
	in := callInputs{vars: map[string]string{}, chain: []string{"fake"}, timeouts: map[string]int{"fake": 1},
		sessions: map[string]string{}, notes: "## earlier\n", iteration: 3, max: 9}
	frozen := fmt.Sprint(in.timeouts, in.sessions)
	topic := plan.Topic{Name: "Moon", Depth: 0, Description: "d"}
	j := topicJob{phase: PhaseResearch, topic: topic, progress: cr.lay.Progress("moon"), output: cr.lay.Progress("moon"),
		vars: map[string]string{"topic": "Moon"}, brief: agents.Brief{Topic: "Moon", CanSubdivide: true}, in: in}
	res := cr.research(context.Background(), j)
	if res.call.err != nil {
		t.Fatal(res.call.err)
	}
	if fmt.Sprint(in.timeouts, in.sessions) != frozen {
		t.Errorf("the step changed its inputs: %v %v", in.timeouts, in.sessions)
	}
	if len(res.proposals) != 1 || res.proposals[0].Name != "Moon detail" || !strings.HasPrefix(res.summary, "finding about Moon") ||
		!strings.Contains(string(res.progress), "## Findings") {
		t.Errorf("result %+v", res)
	}
	if len(res.call.attempts) != 2 || res.call.attempts[0].failure == nil || !res.call.attempts[1].ok || !res.call.recovered {
		t.Errorf("attempts %+v", res.call.attempts)
	}
	if !strings.HasPrefix(res.call.notes, "## 2026-01-01T00:00:00Z research:Moon, attempt 1 on fake") {
		t.Errorf("notes %q", res.call.notes)
	}
	if len(res.call.events) != 2 || !strings.HasPrefix(res.call.events[0], `Retry: research of "Moon" attempt 1 on fake failed`) ||
		!strings.HasPrefix(res.call.events[1], "Recovered: succeeded on attempt 2 with fake") {
		t.Errorf("events %q", res.call.events)
	}
	var kinds []EventKind
	for _, e := range *events {
		kinds = append(kinds, e.Kind)
	}
	if !slices.Equal(kinds, []EventKind{EventPhaseStart, EventRetry, EventPhaseStart}) {
		t.Errorf("reported %v", *events)
	} else if r := (*events)[1]; r.Attempt != 1 || r.Max != maxRetries {
		t.Errorf("retry %d/%d, want 1/%d", r.Attempt, r.Max, maxRetries)
	}

	s := &State{}
	s.init()
	s.applyCall(PhaseResearch, res.call)
	if s.Retried != 1 || s.FailedPhase != nil || s.RetryCount != 0 || !s.PhaseRecovered || s.Usage["fake"].Calls != 2 ||
		s.AgentSession[sessionKey("fake", RoleResearch, "Moon")] != "conv-1" || s.LastError == nil {
		t.Errorf("applied state %+v", s)
	}
}

// sessionAgent returns a conversation id with every answer; its first
// answer writes nothing, which fails the gate, and later calls must
// resume the conversation.
type sessionAgent struct {
	agents.Agent
	id    string
	calls int
}

func (s *sessionAgent) Run(ctx context.Context, task agents.Task) (agents.Result, error) {
	if s.calls++; s.calls == 1 {
		return agents.Result{SessionID: s.id}, nil
	}
	if task.SessionID != s.id {
		return agents.Result{}, fmt.Errorf("call %d did not resume the conversation: %q", s.calls, task.SessionID)
	}
	res, err := s.Agent.Run(ctx, task)
	res.SessionID = s.id
	return res, err
}

// applyCall replays failures exactly as the ladder met them: the last
// failure stays recorded when a phase is exhausted, timeouts count per
// spec, switches are appended.
func TestApplyCallExhausted(t *testing.T) {
	slow := &scripted{name: "slow", failing: func(agents.Task) error { return &agents.CallError{Backend: "slow", Kind: agents.ErrTimeout} }}
	bad := &scripted{name: "bad", failing: func(agents.Task) error { return &agents.CallError{Backend: "bad", Msg: "nope", Exit: 2} }}
	cr, _ := newTestRunner(t, map[string]agents.Agent{"slow": slow, "bad": bad})
	out := filepath.Join(cr.lay.Workspace(), "x.md")
	res := cr.run(context.Background(), call{phase: PhaseSynthesize, template: "synthesize.md", role: RoleResearch, output: out},
		callInputs{vars: map[string]string{}, chain: []string{"slow", "bad"}})
	if !errors.Is(res.err, errExhausted) || len(res.attempts) != 2+maxRetries+1 || len(res.switches) != 1 {
		t.Fatalf("err %v, %d attempts, switches %+v", res.err, len(res.attempts), res.switches)
	}
	s := &State{}
	s.init()
	s.applyCall(PhaseSynthesize, res)
	if s.Timeouts["slow"] != 2 || s.Retried != 1+maxRetries || s.FailedPhase == nil || *s.FailedPhase != PhaseSynthesize ||
		s.RetryCount != maxRetries+1 || !strings.Contains(*s.LastError, "nope") || len(s.Switches) != 1 || s.Switches[0].At != unixSeconds(testNow) {
		t.Errorf("state %+v", s)
	}
	if got := slicesOf(maps.Keys(s.Usage)); got != "[bad slow]" {
		t.Errorf("usage by %s", got)
	}
}

// An agent that cannot be built, or an error no retry can fix, stops the
// call at once.
func TestRunnerStops(t *testing.T) {
	auth := &scripted{name: "a", failing: func(agents.Task) error { return &agents.CallError{Backend: "a", Kind: agents.ErrAuth} }}
	cr, _ := newTestRunner(t, map[string]agents.Agent{"a": auth})
	in := callInputs{vars: map[string]string{}, chain: []string{"a", "missing"}}
	res := cr.run(context.Background(), call{phase: PhaseSynthesize, template: "synthesize.md", output: filepath.Join(cr.lay.Workspace(), "r.md")}, in)
	if !errors.Is(res.err, agents.ErrAuth) || len(res.attempts) != 1 || res.attempts[0].failure != nil {
		t.Errorf("auth: %v %+v", res.err, res.attempts)
	}
	in.chain = []string{"missing"}
	if res := cr.run(context.Background(), call{phase: PhaseSynthesize, template: "synthesize.md"}, in); res.err == nil || !strings.Contains(res.err.Error(), `agent missing: no agent "missing"`) {
		t.Errorf("missing agent: %v", res.err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res := cr.run(ctx, call{phase: PhaseSynthesize, template: "synthesize.md"}, in); !errors.Is(res.err, context.Canceled) {
		t.Errorf("cancelled: %v", res.err)
	}
	var nilPool agentPool
	if _, _, err := nilPool.get("x"); err == nil {
		t.Error("an agent pool without a factory built an agent")
	}
}

func slicesOf(seq func(func(string) bool)) string {
	var out []string
	for s := range seq {
		out = append(out, s)
	}
	slices.Sort(out)
	return fmt.Sprint(out)
}

package mock

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

func TestParseRules(t *testing.T) {
	tests := []struct {
		spec string
		want []Rule
		err  string
	}{
		{"", nil, ""},
		{" , ", nil, ""},
		{"timeout@research", []Rule{{KindTimeout, agents.PhaseResearch, "", 1, ""}}, ""},
		{"error@review:Key Mechanisms*3", []Rule{{KindError, agents.PhaseReview, "Key Mechanisms", 3, ""}}, ""},
		{"garbage@final-review*all, missing@synthesize",
			[]Rule{{KindGarbage, agents.PhaseFinalReview, "", All, ""}, {KindMissing, agents.PhaseSynthesize, "", 1, ""}}, ""},
		{"hang@*", []Rule{{KindHang, AnyPhase, "", 1, ""}}, ""},
		{"error@**2", []Rule{{KindError, AnyPhase, "", 2, ""}}, ""},
		{"error@*:risk*all", []Rule{{KindError, AnyPhase, "risk", All, ""}}, ""},
		{"error@plan:a:b", []Rule{{KindError, agents.PhasePlan, "a:b", 1, ""}}, ""},
		{"gamma=error@**all", []Rule{{KindError, AnyPhase, "", All, "gamma"}}, ""},
		{"beta = missing@rank", []Rule{{KindMissing, agents.PhaseRank, "", 1, "beta"}}, ""},
		{"crash@research", nil, `unknown kind "crash"`},
		{"error@build", nil, `unknown phase "build"`},
		{"error", nil, "kind@phase"},
		{"error@research*0", nil, `times "0"`},
		{"error@research*", nil, `times ""`},
		{"error@research*two", nil, `times "two"`},
		{"error@research,bad", nil, `"bad"`},
	}
	for _, tc := range tests {
		t.Run(tc.spec, func(t *testing.T) {
			got, err := ParseRules(tc.spec)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("ParseRules error = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("ParseRules = %+v, %v; want %+v", got, err, tc.want)
			}
			for _, r := range got {
				again, err := ParseRules(r.String())
				if err != nil || len(again) != 1 || again[0] != r {
					t.Errorf("String %q does not parse back: %+v, %v", r, again, err)
				}
			}
		})
	}
}

func TestFromEnv(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want Options
		err  string
	}{
		{"empty", nil, Options{}, ""},
		{"all set", map[string]string{"RGIT_MOCK_FAIL": "error@plan", "RGIT_MOCK_DELAY": "250ms", "RGIT_MOCK_COUNT": "process"},
			Options{Fail: []Rule{{KindError, agents.PhasePlan, "", 1, ""}}, Delay: 250 * time.Millisecond, PerProcess: true}, ""},
		{"attempt count", map[string]string{"RGIT_MOCK_COUNT": "attempt"}, Options{}, ""},
		{"bad rule", map[string]string{"RGIT_MOCK_FAIL": "oops"}, Options{}, "RGIT_MOCK_FAIL"},
		{"bad delay", map[string]string{"RGIT_MOCK_DELAY": "5"}, Options{}, "RGIT_MOCK_DELAY"},
		{"negative delay", map[string]string{"RGIT_MOCK_DELAY": "-1s"}, Options{}, "RGIT_MOCK_DELAY"},
		{"bad count", map[string]string{"RGIT_MOCK_COUNT": "global"}, Options{}, "RGIT_MOCK_COUNT"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FromEnv(func(k string) string { return tc.env[k] })
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("FromEnv error = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("FromEnv = %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

// TestRuleCounting checks which calls a rule fails, by attempt (the
// default) and per process.
func TestRuleCounting(t *testing.T) {
	type call struct {
		phase   agents.Phase
		topic   string
		attempt int
	}
	research := func(topic string, attempt int) call { return call{agents.PhaseResearch, topic, attempt} }
	tests := []struct {
		name       string
		rules      []Rule
		perProcess bool
		calls      []call
		fails      []bool
	}{
		{"default once", []Rule{{KindError, agents.PhaseResearch, "", 0, ""}}, false,
			[]call{research("A", 0), research("A", 1), research("B", 0)}, []bool{true, false, true}},
		{"twice by attempt", []Rule{{KindError, agents.PhaseResearch, "", 2, ""}}, false,
			[]call{research("A", 0), research("A", 1), research("A", 2), research("A", 0)}, []bool{true, true, false, true}},
		{"always", []Rule{{KindError, agents.PhaseResearch, "", All, ""}}, false,
			[]call{research("A", 0), research("A", 5)}, []bool{true, true}},
		{"topic substring, any case", []Rule{{KindError, agents.PhaseResearch, "risk", 1, ""}}, false,
			[]call{research("Risks and Limitations", 0), research("Key Mechanisms", 0)}, []bool{true, false}},
		{"other phase", []Rule{{KindError, agents.PhaseReview, "", 1, ""}}, false,
			[]call{research("A", 0), {agents.PhaseReview, "A", 0}}, []bool{false, true}},
		{"any phase", []Rule{{KindError, AnyPhase, "", 1, ""}}, false,
			[]call{{agents.PhasePlan, "", 0}, {agents.PhaseRevise, "", 0}}, []bool{true, true}},
		{"per process", []Rule{{KindError, agents.PhaseResearch, "", 2, ""}}, true,
			[]call{research("A", 0), research("B", 0), research("C", 0), research("A", 0)}, []bool{true, true, false, false}},
		{"per process always", []Rule{{KindError, agents.PhaseResearch, "", All, ""}}, true,
			[]call{research("A", 0), research("A", 1), research("A", 2)}, []bool{true, true, true}},
		{"first rule wins, second counts on", []Rule{{KindError, agents.PhaseResearch, "A", 1, ""}, {KindMissing, agents.PhaseResearch, "", 1, ""}}, true,
			[]call{research("A", 0), research("A", 0), research("B", 0)}, []bool{true, true, false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := New(Options{Fail: tc.rules, PerProcess: tc.perProcess})
			for i, c := range tc.calls {
				_, got := a.firing(agents.Task{Phase: c.phase, Attempt: c.attempt, Brief: agents.Brief{Topic: c.topic}})
				if got != tc.fails[i] {
					t.Errorf("call %d %+v: fails = %v, want %v", i, c, got, tc.fails[i])
				}
			}
		})
	}
}

// TestRestartInvariance shows why attempts are the default: a process
// restart (a new Agent) before each call changes nothing when counting
// attempts, and repeats the failure when counting per process.
func TestRestartInvariance(t *testing.T) {
	rules := []Rule{{KindError, agents.PhaseResearch, "", 2, ""}}
	var calls []agents.Task
	for _, topic := range []string{"A", "B"} {
		for attempt := range 3 {
			calls = append(calls, agents.Task{Phase: agents.PhaseResearch, Attempt: attempt, Brief: agents.Brief{Topic: topic}})
		}
	}
	for _, perProcess := range []bool{false, true} {
		long := New(Options{Fail: rules, PerProcess: perProcess})
		differ := 0
		for _, c := range calls {
			_, a := long.firing(c)
			_, b := New(Options{Fail: rules, PerProcess: perProcess}).firing(c)
			if a != b {
				differ++
			}
		}
		if (differ == 0) != !perProcess {
			t.Errorf("PerProcess %v: %d of %d calls differ after restarts", perProcess, differ, len(calls))
		}
	}
}

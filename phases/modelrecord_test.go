package phases

import (
	"reflect"
	"testing"

	"github.com/rgit-dev/rgit/agents"
)

// TestPinModel: what a spec without a model ran as replaces it wherever
// the session names it, so the chain stays the same chain.
func TestPinModel(t *testing.T) {
	base := func() State {
		return State{Settings: Settings{Model: "claude", ReviewModel: "codex", Fallback: []string{"codex", "claude"}},
			Switches: []Switch{{From: "codex", To: "claude"}}, Timeouts: map[string]int{"claude": 1, "codex": 2}}
	}
	for _, tc := range []struct {
		name       string
		spec, full string
		want       func(*State)
	}{
		{"research agent", "claude", "claude:claude-opus-4-6", func(s *State) {
			s.Model, s.Fallback = "claude:claude-opus-4-6", []string{"codex", "claude:claude-opus-4-6"}
			s.Switches[0].To, s.Timeouts = "claude:claude-opus-4-6", map[string]int{"claude:claude-opus-4-6": 1, "codex": 2}
		}},
		{"review agent", "codex", "codex:gpt-5-codex", func(s *State) {
			s.ReviewModel, s.Fallback = "codex:gpt-5-codex", []string{"codex:gpt-5-codex", "claude"}
			s.Switches[0].From, s.Timeouts = "codex:gpt-5-codex", map[string]int{"claude": 1, "codex:gpt-5-codex": 2}
		}},
		{"nothing reported", "claude", "", func(*State) {}},
		{"already named", "claude", "claude", func(*State) {}},
		{"a spec the session does not use", "gemini", "gemini:gemini-2.5-pro", func(*State) {}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, want := base(), base()
			tc.want(&want)
			got.pinModel(tc.spec, tc.full)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
			if chain := got.chain(RoleResearch, got.Switches); chain[0] != got.Model {
				t.Errorf("research chain %v does not start at %s", chain, got.Model)
			}
		})
	}
}

// TestAgentPoolModel: the model a call passes to its backend is the
// spec's model, in both the backend:model and opencode's provider/model
// forms; a bare backend passes none (the CLI's own default).
func TestAgentPoolModel(t *testing.T) {
	for spec, want := range map[string]string{
		"claude:claude-opus-4-6":     "claude-opus-4-6",
		"opencode/minimax-m2.1-free": "opencode/minimax-m2.1-free",
		"opencode:ollama/qwen3:8b":   "ollama/qwen3:8b",
		"claude":                     "",
		"mock:alpha":                 "alpha",
		"picky":                      "", // a test agent: no registry backend
		"claude:claude-opus-4-8[1m]": "claude-opus-4-8[1m]",
	} {
		p := &agentPool{newAgent: func(string) (agents.Agent, error) { return &scripted{name: spec}, nil }}
		if _, got, err := p.get(spec); err != nil || got != want {
			t.Errorf("get(%q) model %q, %v; want %q", spec, got, err, want)
		}
	}
}

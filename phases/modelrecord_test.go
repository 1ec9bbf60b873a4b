package phases

import (
	"reflect"
	"testing"
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

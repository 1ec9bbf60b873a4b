package phases

import (
	"errors"
	"strings"
	"testing"
)

func TestParseState(t *testing.T) {
	good := `{"original_topic":"t","breadth":1,"depth":0,"max_iterations":6,"stage":"research","current_phase":"plan",` +
		`"phase_history":["start","plan"],"fallback_switches":[{"from":"a","to":"b","phase":"research"}]}`
	tests := []struct {
		name    string
		data    string
		errHas  string // "" = parses
		badData bool   // a BadInputError
	}{
		{"good", good, "", false},
		{"malformed json", `{"breadth":`, "x.json: malformed state", true},
		{"newer version", strings.Replace(good, `"t"`, `"t","rgit_state_version":99`, 1), "newer than this rgit", true},
		{"bad numbers", strings.Replace(good, `"breadth":1`, `"breadth":0`, 1), "breadth 0", true},
		{"unknown stage", strings.Replace(good, `"stage":"research"`, `"stage":"dreaming"`, 1), `x.json: unknown stage "dreaming"`, true},
		{"missing stage", strings.Replace(good, `"stage":"research",`, ``, 1), `x.json: unknown stage ""`, true},
		{"unknown current phase", strings.Replace(good, `"current_phase":"plan"`, `"current_phase":"nap"`, 1), `x.json: unknown phase "nap"`, true},
		{"unknown failed phase", strings.Replace(good, `"t",`, `"t","failed_phase":"oops",`, 1), `unknown phase "oops"`, true},
		{"unknown phase in history", strings.Replace(good, `"start","plan"`, `"start","dance:Topic"`, 1), `unknown phase "dance"`, true},
		{"unknown phase in a switch", strings.Replace(good, `"phase":"research"}`, `"phase":"?"}`, 1), `unknown phase "?"`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseState("x.json", []byte(tc.data))
			if tc.errHas == "" {
				if err != nil {
					t.Fatal(err)
				}
				if s.Slugs == nil || s.Usage == nil || s.Timeouts == nil {
					t.Error("maps not initialised")
				}
				return
			}
			var bad *BadInputError
			if err == nil || !strings.Contains(err.Error(), tc.errHas) || errors.As(err, &bad) != tc.badData {
				t.Fatalf("err = %v, want a bad-input error containing %q", err, tc.errHas)
			}
		})
	}
}

// state.json round-trips, and the settings appear once, at the top level.
func TestStateMarshal(t *testing.T) {
	s := &State{OriginalTopic: "t", Settings: Settings{Breadth: 2, Depth: 1, MaxIterations: 9, Model: "mock"},
		Stage: StageResearch, CurrentPhase: PhasePlan}
	s.init()
	data := s.Marshal()
	if strings.Count(string(data), `"breadth"`) != 1 || strings.Contains(string(data), "Settings") {
		t.Errorf("settings not flat in state.json:\n%s", data)
	}
	back, err := ParseState("s", data)
	if err != nil {
		t.Fatal(err)
	}
	if string(back.Marshal()) != string(data) {
		t.Errorf("round trip changed state.json")
	}
}

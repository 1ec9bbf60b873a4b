package phases

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestStateMarshalMatchesEncodingJSON: state.json's bytes are exactly
// json.MarshalIndent's, however the big fields are filled: a session
// branch written by an earlier rgit and one written now must not differ.
func TestStateMarshalMatchesEncodingJSON(t *testing.T) {
	awkward := []string{"", "plain", `quote " and \ backslash`, "<html> & co", "tab\tnewline\n", "nul\x00", "caf\u00e9 \u2028 \u2029",
		"bad utf8 \xff\xfe", "emoji \U0001F600", "\x7f del", "slash / and ~"}
	base := func() *State {
		s := &State{OriginalTopic: "t", Settings: Settings{Breadth: 2, Depth: 1, MaxIterations: 9, Model: "mock"},
			Stage: StageResearch, CurrentPhase: PhaseReview, Name: "x"}
		s.init()
		return s
	}
	full := func(words []string) *State {
		s := base()
		for i, w := range words {
			k := fmt.Sprintf("%s %d", w, i)
			s.Slugs[k], s.Summaries[k], s.AgentSession[k], s.Passes[k] = w, w+w, "sess-"+w, i-3
			s.PhaseHistory = append(s.PhaseHistory, "research:"+w)
		}
		s.Summaries[""], s.Slugs["\""] = "", "" // keys like the stand-ins'
		return s
	}
	cases := map[string]*State{
		"empty":        base(),
		"nil maps":     {OriginalTopic: "t", Stage: StageResearch},
		"awkward":      full(awkward),
		"only history": func() *State { s := base(); s.PhaseHistory = []string{"plan", `<"x">`}; return s }(),
		"only passes":  func() *State { s := base(); s.Passes["a"] = 2; return s }(),
		"stand-in value": func() *State {
			s := base()
			s.Slugs[""] = ""
			s.PhaseHistory = []string{""}
			s.Passes[""] = 0
			return s
		}(),
		"stand-in text elsewhere": func() *State {
			s := full([]string{"a"})
			e := "\n  \"slugs\": {\n    \"\": \"\"\n  }"
			s.LastError, s.Gaps["g"] = &e, []string{e}
			return s
		}(),
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 20 {
		var words []string
		for range r.IntN(40) {
			b := make([]byte, r.IntN(12))
			for j := range b {
				b[j] = byte(r.IntN(256))
			}
			words = append(words, string(b), awkward[r.IntN(len(awkward))])
		}
		cases[fmt.Sprintf("random %d", i)] = full(words)
	}
	for name, s := range cases {
		want, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if got := string(s.Marshal()); got != string(want)+"\n" {
			t.Errorf("%s: state.json differs from encoding/json's:\n got %q\nwant %q", name, got, want)
		}
	}
}

// TestStateMarshalSplices: the fast path is taken for a state with big
// fields, so the equality above is tested on it and not on the fallback.
func TestStateMarshalSplices(t *testing.T) {
	s := &State{OriginalTopic: "t", Stage: StageResearch}
	s.init()
	s.Slugs["a"], s.PhaseHistory = "a", []string{"plan"}
	if _, ok := s.marshalSpliced(); !ok {
		t.Fatal("marshalSpliced fell back for a plain state")
	}
}

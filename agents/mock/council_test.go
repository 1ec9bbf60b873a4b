package mock

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
)

// TestCouncilPhases runs a two-member council through the mock by hand:
// research until the marker, refinement, ranking and the synthesis.
func TestCouncilPhases(t *testing.T) {
	dir := t.TempDir()
	q := "How do tides work?"
	a := New(Options{})
	run := func(phase agents.Phase, out string, c *agents.Council) agents.Result {
		t.Helper()
		res, err := a.Run(context.Background(), agents.Task{Phase: phase, Dir: dir, Output: out, Brief: agents.Brief{Question: q, Council: c}})
		if err != nil {
			t.Fatalf("%s: %v", phase, err)
		}
		return res
	}
	report := func(m string) string { return filepath.Join(dir, m, "report.md") }
	for _, m := range []string{"alpha", "beta"} {
		k := MemberRounds(q, m)
		if k < 2 || k > 3 {
			t.Fatalf("MemberRounds(%s) = %d, want 2 or 3", m, k)
		}
		for i := 1; i <= k; i++ {
			run(agents.PhaseMemberResearch, report(m), &agents.Council{Member: m, Iteration: i, MaxIterations: 10, Report: report(m)})
			data, _ := os.ReadFile(report(m))
			for _, h := range []string{"## Executive Summary", "## Key Findings", "## Methodology", "## Open Questions", "## Sources"} {
				if !hasHeading(string(data), h) {
					t.Errorf("%s iteration %d lacks %s", m, i, h)
				}
			}
			if done := strings.HasSuffix(string(data), completeMarker+"\n"); done != (i == k) {
				t.Errorf("%s iteration %d of %d: complete = %v", m, i, k, done)
			}
		}
	}
	refined := func(m string) string { return filepath.Join(dir, m, "refined.md") }
	run(agents.PhaseRefine, refined("alpha"), &agents.Council{Member: "alpha", Report: report("alpha"), Reports: []agents.MemberReport{{Name: "beta", Path: report("beta")}}})
	run(agents.PhaseRefine, refined("beta"), &agents.Council{Member: "beta", Report: report("beta"), Reports: []agents.MemberReport{{Name: "alpha", Path: report("alpha")}}})
	data, _ := os.ReadFile(refined("alpha"))
	if !strings.Contains(string(data), "## Cross-Pollination") {
		t.Errorf("refined report lacks the cross-pollination section:\n%s", data)
	}

	res := run(agents.PhaseRank, filepath.Join(dir, "rank.json"), &agents.Council{Member: "alpha",
		Reports: []agents.MemberReport{{Name: "Report A", Path: refined("beta")}, {Name: "Report B", Path: refined("alpha")}}})
	var got struct {
		Ranking []struct{ Report, Reason string } `json:"ranking"`
	}
	if err := json.Unmarshal([]byte(res.Text), &got); err != nil || len(got.Ranking) != 2 || got.Ranking[0].Reason == "" {
		t.Fatalf("ranking %q: %v", res.Text, err)
	}

	out := filepath.Join(dir, "final.md")
	run(agents.PhaseSynthesize, out, &agents.Council{Reports: []agents.MemberReport{{Name: "alpha", Path: refined("alpha")}, {Name: "beta", Path: refined("beta")}}})
	data, _ = os.ReadFile(out)
	for _, h := range []string{"Executive Summary", "Key Findings", "Areas of Strong Consensus", "Areas of Disagreement or Nuance",
		"Novel Insights", "Remaining Open Questions", "Sources", "Methodology Note"} {
		if !hasHeading(string(data), "## "+h) {
			t.Errorf("synthesis lacks ## %s:\n%s", h, data)
		}
	}
}

// TestRuleModel: a rule named for one model fails only that member.
func TestRuleModel(t *testing.T) {
	rules, err := ParseRules("gamma=error@**all")
	if err != nil {
		t.Fatal(err)
	}
	a := New(Options{Fail: rules})
	for model, want := range map[string]bool{"gamma": true, "alpha": false, "": false} {
		if _, got := a.firing(agents.Task{Phase: agents.PhaseMemberResearch, Model: model}); got != want {
			t.Errorf("model %q: fails = %v, want %v", model, got, want)
		}
	}
}

package phases

import (
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func TestQuotations(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{`- On the criterion "Identifies the main sources", the sources agree [3].`, []string{"Identifies the main sources"}},
		{`- As “the tide follows the moon” says, and "short" is too short [1].`, []string{"the tide follows the moon"}},
		{`- No quotation here [2].`, nil},
		{`- "one quoted passage" and "another quoted passage" [4].`, []string{"one quoted passage", "another quoted passage"}},
	}
	for _, tc := range tests {
		if got := quotations(tc.line); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("quotations(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestQuotationsMatchRegexp checks quotations against the regexp it
// stands for, on random lines of quotes, curly quotes, newlines, accented
// letters and invalid UTF-8.
func TestQuotationsMatchRegexp(t *testing.T) {
	re := regexp.MustCompile(`"([^"\n]{8,})"|“([^”\n]{8,})”`)
	want := func(s string) []string {
		var out []string
		for _, m := range re.FindAllStringSubmatch(s, -1) {
			out = append(out, m[1]+m[2])
		}
		return out
	}
	parts := []string{`"`, "“", "”", "\n", "a", "bb", "é", "\xff", "\xe2\x80", " "}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		if s := b.String(); !reflect.DeepEqual(quotations(s), want(s)) {
			t.Fatalf("quotations(%q) = %q, the regexp finds %q", s, quotations(s), want(s))
		}
	}
}

// TestAuditConsistency checks the history checks against state.json and
// the trailers: each inconsistency is one named problem.
func TestAuditConsistency(t *testing.T) {
	banner := []byte("---\n⚠️ **WARNING: ITERATION LIMIT REACHED**\n---\n\n# Report\n")
	rows := func(phase Phase, iter string) []PhaseRow {
		return []PhaseRow{{Phase: PhaseMerge}, {Phase: phase, Iteration: iter}, {Phase: PhaseResearch, Iteration: "1"}}
	}
	tests := []struct {
		name   string
		state  State
		report []byte
		rows   []PhaseRow
		want   string // a problem's substring; "" = none
	}{
		{"consistent", State{IsComplete: true, Iteration: 3}, []byte("# Report\n"), rows(PhaseComplete, "3"), ""},
		{"consistent with banner", State{IsComplete: true, Iteration: 3, LimitReached: true}, banner, rows(PhaseComplete, "3"), ""},
		{"not complete", State{Iteration: 3}, []byte("# Report\n"), rows(PhaseReview, "3"), `not complete (last phase "review")`},
		{"no report", State{IsComplete: true, Iteration: 3}, nil, rows(PhaseComplete, "3"), "report is missing"},
		{"banner removed", State{IsComplete: true, Iteration: 3, LimitReached: true}, []byte("# Report\n"), rows(PhaseComplete, "3"), "banner is absent but state.json says limit_reached true"},
		{"banner added", State{IsComplete: true, Iteration: 3}, banner, rows(PhaseComplete, "3"), "banner is present"},
		{"iterations differ", State{IsComplete: true, Iteration: 5}, []byte("# Report\n"), rows(PhaseComplete, "3"), "trailers reach iteration 3 but state.json records 5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := &audit{state: &tc.state, report: tc.report, rows: tc.rows}
			var problems []string
			c := a.consistency(&problems)
			if tc.want == "" {
				if !c.OK() || len(problems) > 0 {
					t.Errorf("check %+v, problems %q", c, problems)
				}
				return
			}
			if c.OK() || len(problems) != 1 || !strings.Contains(problems[0], tc.want) {
				t.Errorf("check %+v, problems %q, want one with %q", c, problems, tc.want)
			}
		})
	}
}

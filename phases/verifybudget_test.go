package phases

import (
	"strings"
	"testing"
)

func TestVerifyMembers(t *testing.T) {
	cs := &CouncilState{
		Members: []CouncilMember{{Name: "mock-alpha"}, {Name: "mock-beta"}, {Name: "mock-gamma"}},
		Results: []MemberRecord{{Member: "mock-alpha"}},
		Failed:  map[string]string{"mock-beta": "exit 1", "mock-gamma": "exit 1"},
	}
	a := &audit{state: &State{Council: cs}, report: []byte("## Methodology Note\nmock-beta failed and was left out.\n")}
	var problems []string
	c := a.topics(&problems)
	if c.Name != "members" || c.Passed != 2 || c.Total != 3 {
		t.Fatalf("check = %+v, want members 2/3", c)
	}
	if len(problems) != 1 || !strings.Contains(problems[0], `"mock-gamma"`) {
		t.Errorf("problems = %q, want one naming mock-gamma", problems)
	}
}

func TestVerifyBudget(t *testing.T) {
	const tokensBanner = "---\n⚠️ **WARNING: TOKEN BUDGET REACHED**\n\nbody"
	usage := map[string]*Totals{"mock": {InputTokens: 100, OutputTokens: 20}}
	rows := []PhaseRow{{Hash: "a", Tokens: "70"}, {Hash: "b"}, {Hash: "c", Tokens: "50"}}
	for _, tc := range []struct {
		name   string
		state  State
		budget *Budget
		report string
		rows   []PhaseRow
		passed int
		want   string // a problem that must be reported; "" for none
	}{
		{"clean", State{Usage: usage}, nil, "# Report", rows, 3, ""},
		{"budget stop", State{Usage: usage, LimitReached: true, Limit: LimitTokens}, &Budget{MaxTokens: 100}, tokensBanner, rows, 3, ""},
		{"banner names another limit", State{Usage: usage, LimitReached: true, Limit: LimitIterations}, nil, tokensBanner, rows, 2,
			`banner says "TOKEN BUDGET REACHED" but state.json records the limit "iterations"`},
		{"no such budget", State{Usage: usage, LimitReached: true, Limit: LimitTokens}, nil, tokensBanner, rows, 2, "has no such budget"},
		{"tokens do not add up", State{Usage: usage}, nil, "# Report", rows[:1], 2, "add up to 70 tokens but state.json records 120"},
		{"malformed trailer", State{Usage: usage}, nil, "# Report", []PhaseRow{{Hash: "d", Tokens: "many"}}, 2, `malformed Rgit-Tokens trailer "many"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.state.Budget = tc.budget
			a := &audit{state: &tc.state, report: []byte(tc.report), rows: tc.rows}
			var problems []string
			c := a.budget(&problems)
			if c.Passed != tc.passed || c.Total != 3 {
				t.Errorf("check = %d/%d, want %d/3 (%q)", c.Passed, c.Total, tc.passed, problems)
			}
			if tc.want == "" && len(problems) > 0 || tc.want != "" && (len(problems) != 1 || !strings.Contains(problems[0], tc.want)) {
				t.Errorf("problems = %q, want %q", problems, tc.want)
			}
		})
	}
}

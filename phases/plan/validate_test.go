package plan

import (
	"errors"
	"strings"
	"testing"
)

// Validate on plans built in code (Line 0), as the loop holds them after
// AddSubtopics or a status change.
func TestValidateBuilt(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(p *Plan)
		want   string // "" for valid
	}{
		{"full plan is valid", func(p *Plan) {}, ""},
		{"self parent", func(p *Plan) { p.Topics[1].Parent = p.Topics[1].Name }, "its own ancestor"},
		{"control character", func(p *Plan) { p.Topics[0].Name = "bad\x07name" }, "control character"},
		{"double space", func(p *Plan) { p.Topics[0].Name = "two  spaces" }, "extra spaces"},
		{"empty name", func(p *Plan) { p.Topics[0].Name = "" }, "is empty"},
		{"invalid utf-8", func(p *Plan) { p.Topics[0].Name = "bad\xffname" }, "not valid UTF-8"},
		{"empty status", func(p *Plan) { p.Topics[2].Status = "" }, "unknown status"},
		{"negative depth", func(p *Plan) { p.Depth = -1 }, "depth must be 0 or more"},
		{"no topic", func(p *Plan) { p.Topic = " " }, "missing topic"},
		{"no topics", func(p *Plan) { p.Topics = nil }, "no topics"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := fullPlan(2, 2)
			tc.mutate(p)
			err := p.Validate("built.md")
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Validate = %v", err)
				}
				return
			}
			var pe *Error
			if !errors.As(err, &pe) || !strings.Contains(pe.Msg, tc.want) {
				t.Fatalf("Validate = %v, want an *Error containing %q", err, tc.want)
			}
			if pe.Line != 0 || !strings.HasPrefix(err.Error(), "built.md: ") {
				t.Errorf("a plan built in code has no lines, got %q", err)
			}
		})
	}
}

func TestErrorFormat(t *testing.T) {
	tests := []struct {
		err  Error
		want string
	}{
		{Error{File: "research_plan.md", Line: 12, Msg: "fix it"}, "research_plan.md:12: fix it"},
		{Error{File: "research_plan.md", Msg: "fix it"}, "research_plan.md: fix it"},
	}
	for _, tc := range tests {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}

// A question with newlines (from the command line) renders on one line and
// reads back folded.
func TestRenderFoldsTopic(t *testing.T) {
	p := fullPlan(1, 0)
	p.Topic = "Why is\nthe sky\tblue?"
	q, err := Parse("plan.md", Render(p))
	if err != nil {
		t.Fatal(err)
	}
	if q.Topic != "Why is the sky blue?" {
		t.Errorf("Topic = %q", q.Topic)
	}
}

// The full plans the benchmarks use are valid and round-trip, so the
// figures measure the real path.
func TestFullPlansRoundTrip(t *testing.T) {
	for _, s := range benchSizes {
		p := fullPlan(s.breadth, s.depth)
		q, err := Parse("full.md", Render(p))
		if err != nil {
			t.Fatal(err)
		}
		if d := diffPlans(p, q); d != "" {
			t.Errorf("breadth %d depth %d: %s", s.breadth, s.depth, d)
		}
		if c := q.Counts(); c.Total != len(p.Topics) || c.Pending != c.Total {
			t.Errorf("counts %+v for %d topics", c, len(p.Topics))
		}
	}
	if n := len(fullPlan(3, 3).Topics); n != 120 {
		t.Errorf("breadth 3 depth 3 has %d topics, want 120", n)
	}
	if n := len(fullPlan(5, 4).Topics); n != 3905 {
		t.Errorf("breadth 5 depth 4 has %d topics, want 3905", n)
	}
}

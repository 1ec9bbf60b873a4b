package plan

import (
	"strings"
	"testing"
)

// statuses builds a plan from "name:depth:parent:status" specs.
func statuses(specs ...string) *Plan {
	p := &Plan{Topic: "q", Breadth: 3, Depth: 3}
	for _, s := range specs {
		f := strings.Split(s, ":")
		st, _ := ParseStatus(f[3])
		p.Topics = append(p.Topics, &Topic{Name: f[0], Depth: int(f[1][0] - '0'), Parent: f[2], Status: st})
	}
	return p
}

func TestNext(t *testing.T) {
	tests := []struct {
		name string
		plan *Plan
		skip string // a topic to pass over
		kind StepKind
		want string
	}{
		{"first pending root", statuses("A:0::pending", "B:0::pending"), "", StepResearch, "A"},
		{"in review beats shallower pending", statuses("A:0::complete", "B:0::pending", "A1:1:A:in review"), "", StepReview, "A1"},
		{"lowest depth before plan order", statuses("A:0::complete", "A1:1:A:pending", "B:0::pending"), "", StepResearch, "B"},
		{"in progress counts like pending", statuses("A:0::complete", "A1:1:A:in progress", "B:0::complete", "B1:1:B:pending"), "", StepResearch, "A1"},
		{"plan order within a depth", statuses("A:0::complete", "B:0::complete", "B1:1:B:pending", "A1:1:A:pending"), "", StepResearch, "B1"},
		{"all complete is done", statuses("A:0::complete", "A1:1:A:complete"), "", StepDone, ""},
		{"skip passes over a topic", statuses("A:0::pending", "B:0::pending"), "A", StepResearch, "B"},
		{"skip passes over a review", statuses("A:0::in review", "B:0::pending"), "A", StepResearch, "B"},
		{"only skipped left is done", statuses("A:0::in progress", "B:0::complete"), "A", StepDone, ""},
		{"empty plan is done", statuses(), "", StepDone, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var skip func(*Topic) bool
			if tc.skip != "" {
				skip = func(t *Topic) bool { return t.Name == tc.skip }
			}
			got := Next(tc.plan, skip)
			name := ""
			if got.Topic != nil {
				name = got.Topic.Name
			}
			if got.Kind != tc.kind || name != tc.want {
				t.Errorf("Next = %v %q, want %v %q", got.Kind, name, tc.kind, tc.want)
			}
		})
	}
}

func TestAddSubtopics(t *testing.T) {
	base := func() *Plan {
		p := statuses("A:0::complete", "A1:1:A:complete", "A1a:2:A1:pending", "B:0::in progress", "B1:1:B:pending")
		p.Breadth, p.Depth = 2, 2
		return p
	}
	tests := []struct {
		name    string
		parent  string
		props   []string // proposal names
		added   []string
		dropped []string // "name: words of the reason"
		order   string   // plan order afterwards
	}{
		{"fills up to breadth", "B", []string{"B2", "B3"}, []string{"B2"}, []string{"B3: already has Breadth 2"}, "A A1 A1a B B1 B2"},
		{"after the parent's subtree", "A", []string{"A2"}, []string{"A2"}, nil, "A A1 A1a A2 B B1"},
		{"deeper under a child", "A1", []string{"A1b"}, []string{"A1b"}, nil, "A A1 A1a A1b B B1"},
		{"past depth", "A1a", []string{"deep"}, nil, []string{"deep: past the plan's Depth 2"}, "A A1 A1a B B1"},
		{"unknown parent", "Nope", []string{"X", "Y"}, nil, []string{"X: is not in the plan", "Y: is not in the plan"}, "A A1 A1a B B1"},
		{"duplicate of existing, any case", "B", []string{"a1", "B2"}, []string{"B2"}, []string{"a1: already exists"}, "A A1 A1a B B1 B2"},
		{"duplicate within the batch", "A", []string{"New", "new"}, []string{"New"}, []string{"new: already exists"}, "A A1 A1a New B B1"},
		{"roots at breadth", "", []string{"C"}, nil, []string{"C: the plan already has Breadth 2 depth-0 topics"}, "A A1 A1a B B1"},
		{"markup around names removed", "A1", []string{"_A1a_", "**[Bold Name]**"}, []string{"Bold Name"}, []string{`_A1a_: a topic named "A1a" already exists`}, "A A1 A1a Bold Name B B1"},
		{"empty name", "A", []string{"  ", "[Ok Name]"}, []string{"Ok Name"}, []string{"  : is empty"}, "A A1 A1a Ok Name B B1"},
		{"control character", "A", []string{"bad\x00name"}, nil, []string{"bad\x00name: control character"}, "A A1 A1a B B1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := base()
			var props []Proposal
			for _, n := range tc.props {
				props = append(props, Proposal{Name: n, Description: "line one\nline two", Criteria: []string{"c1\n### Injected (Depth: 0)", " "}})
			}
			added, dropped := p.AddSubtopics(tc.parent, props)
			var names []string
			for _, a := range added {
				names = append(names, a.Name)
				if a.Status != Pending || a.Parent != tc.parent || a.Line != 0 {
					t.Errorf("added %+v", a)
				}
				if a.Description != "line one line two" || len(a.Criteria) != 1 || strings.Contains(a.Criteria[0], "\n") {
					t.Errorf("added %q with unsafe text: %q %q", a.Name, a.Description, a.Criteria)
				}
			}
			if strings.Join(names, ",") != strings.Join(tc.added, ",") {
				t.Errorf("added %q, want %q", names, tc.added)
			}
			if len(dropped) != len(tc.dropped) {
				t.Fatalf("dropped %+v, want %q", dropped, tc.dropped)
			}
			for i, d := range dropped {
				name, words, _ := strings.Cut(tc.dropped[i], ": ")
				if d.Name != name || !strings.Contains(d.Reason, words) {
					t.Errorf("dropped %+v, want %q", d, tc.dropped[i])
				}
			}
			var order []string
			for _, tp := range p.Topics {
				order = append(order, tp.Name)
			}
			if got := strings.Join(order, " "); got != tc.order {
				t.Errorf("plan order %q, want %q", got, tc.order)
			}
			// Whatever was added, the plan stays valid and renderable.
			if err := p.Validate("plan.md"); err != nil {
				t.Errorf("plan invalid after AddSubtopics: %v", err)
			}
			if _, err := Parse("plan.md", Render(p)); err != nil {
				t.Errorf("rendered plan does not parse: %v", err)
			}
		})
	}
}

// A parent's subtree need not be contiguous (a breadth-first listing); new
// children still go after its last descendant.
func TestAddSubtopicsBreadthFirstListing(t *testing.T) {
	p := statuses("A:0::complete", "B:0::complete", "A1:1:A:pending", "B1:1:B:pending", "A1a:2:A1:pending")
	p.AddSubtopics("A", []Proposal{{Name: "A2"}})
	var order []string
	for _, tp := range p.Topics {
		order = append(order, tp.Name)
	}
	if got, want := strings.Join(order, " "), "A B A1 B1 A1a A2"; got != want {
		t.Errorf("plan order %q, want %q", got, want)
	}
}

func TestCounts(t *testing.T) {
	p := statuses("A:0::complete", "B:0::in review", "C:0::in progress", "A1:1:A:pending", "A2:1:A:pending")
	got := p.Counts()
	want := Counts{Total: 5, Complete: 1, InReview: 1, InProgress: 1, Pending: 2}
	if got != want {
		t.Errorf("Counts = %+v, want %+v", got, want)
	}
	// Render's Completion Status comes from the same counts.
	out := string(Render(p))
	for _, line := range []string{"- Total Topics: 5", "- Complete: 1", "- In Review: 1", "- In Progress: 1", "- Pending: 2"} {
		if !strings.Contains(out, "\n"+line+"\n") {
			t.Errorf("rendering lacks %q", line)
		}
	}
}

func TestTreeNavigation(t *testing.T) {
	p := readPlan(t, "canonical.md")
	var kids []string
	for _, c := range p.Children("Collector Families") {
		kids = append(kids, c.Name)
	}
	if got := strings.Join(kids, ","); got != "Generational Hypothesis,Concurrent Marking" {
		t.Errorf("Children = %s", got)
	}
	var roots []string
	for _, c := range p.Children("") {
		roots = append(roots, c.Name)
	}
	if got := strings.Join(roots, ","); got != "Collector Families,Production Collectors" {
		t.Errorf("roots = %s", got)
	}
	var anc []string
	for _, a := range Ancestors(p, p.Find("Nursery Sizing")) {
		anc = append(anc, a.Name)
	}
	if got := strings.Join(anc, ","); got != "Collector Families,Generational Hypothesis" {
		t.Errorf("Ancestors = %s", got)
	}
	if p.Find("nursery sizing") != nil {
		t.Error("Find matched a name in another case")
	}
	// A cycle built in code must not hang Ancestors.
	c := statuses("X:1:Y:pending", "Y:1:X:pending")
	if got := Ancestors(c, c.Topics[0]); len(got) > len(c.Topics) {
		t.Errorf("Ancestors on a cycle returned %d topics", len(got))
	}
}

func TestCleanName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"**[Bold Name]**", "Bold Name"},
		{"[`code`]", "code"},
		{"_x_ y", "_x_ y"},
		{"C++ *", "C++ *"},
		{"  a \n b  ", "a b"},
		{"**", ""},
	}
	for _, tc := range tests {
		if got := cleanName(tc.in); got != tc.want {
			t.Errorf("cleanName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

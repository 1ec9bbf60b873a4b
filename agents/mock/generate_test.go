package mock

import (
	"strconv"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
)

// TestPlan checks the plan has exactly Breadth uniquely named depth-0
// topics in the seed's format, for breadths past the aspect vocabulary.
func TestPlan(t *testing.T) {
	for _, breadth := range []int{1, 3, len(rootAspects), len(rootAspects) + 5, 2*len(rootAspects) + 1} {
		out := plan(agents.Brief{Question: "What\nlimits  fusion power?", Breadth: breadth, Depth: 2})
		seen := map[string]bool{}
		for line := range strings.Lines(out.body) {
			if m := planHeading.FindStringSubmatch(strings.TrimRight(line, "\n")); m != nil {
				if seen[m[1]] || m[2] != "0" {
					t.Errorf("breadth %d: duplicate or nested topic %q", breadth, line)
				}
				seen[m[1]] = true
			}
		}
		if len(seen) != breadth {
			t.Errorf("breadth %d: %d topics", breadth, len(seen))
		}
		for _, want := range []string{"# Research Plan\n\n## Metadata\n- Topic: What limits fusion power?\n",
			"- Breadth: " + strconv.Itoa(breadth) + "\n- Depth: 2\n", "\n## Topics\n\n### ", "- Status: Pending\n- Description: ",
			"- Acceptance Criteria:\n  - ", "## Completion Status\n- Total Topics: " + strconv.Itoa(breadth) + "\n"} {
			if !strings.Contains(out.body, want) {
				t.Errorf("breadth %d: plan lacks %q", breadth, want)
			}
		}
	}
}

// TestReresearch checks a second pass with review gaps keeps the first
// pass's findings, sources and knowledge gaps, answers every gap with a
// new cited finding, and proposes no subtopic the plan already has.
func TestReresearch(t *testing.T) {
	first := agents.Brief{Question: "What limits fusion power?", Breadth: 3, Depth: 2, Topic: "Key Mechanisms",
		Criteria: []string{`Names the "triple product"`}, CanSubdivide: true, Existing: []string{"Key Mechanisms"}}
	one := research(first).body
	subs := subtopicsOf(one)
	if len(subs) == 0 {
		t.Fatal("first pass proposed no subtopics; pick another topic for this test")
	}
	second := first
	second.Gaps = []string{"Cite a primary source", "Quantify the uncertainty"}
	for _, s := range subs {
		second.Existing = append(second.Existing, s.name)
	}
	two := research(second).body
	for _, section := range []string{"## Findings", "## Sources", "## Knowledge Gaps"} {
		before, after := sectionItems(one, section), sectionItems(two, section)
		if len(after) < len(before) {
			t.Fatalf("%s: %d items, was %d", section, len(after), len(before))
		}
		for i := range before {
			if before[i] != after[i] {
				t.Errorf("%s item %d changed: %q -> %q", section, i, before[i], after[i])
			}
		}
	}
	if got, want := len(sectionItems(two, "## Findings")), len(sectionItems(one, "## Findings"))+len(second.Gaps); got != want {
		t.Errorf("second pass has %d findings, want %d", got, want)
	}
	for _, g := range second.Gaps {
		if !strings.Contains(two, `"`+g+`"`) {
			t.Errorf("gap %q not answered", g)
		}
	}
	if again := subtopicsOf(two); len(again) != 0 {
		t.Errorf("second pass proposed %v again", again)
	}
}

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

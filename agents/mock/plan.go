package mock

import (
	"fmt"
	"strings"

	"github.com/rgit-dev/rgit/agents"
)

var criteriaForms = []string{
	"Identifies the main sources on %s",
	"Summarises at least three independent findings on %s, each cited",
	"States where the evidence on %s is weak or contested",
	"Quantifies the key figures on %s with their uncertainty",
	"Explains how %s bears on the question",
}

// plan writes research_plan.md with Brief.Breadth depth-0 topics, in the
// format of the research tool's seed.
func plan(b agents.Brief) output {
	r := seedFor(b.Question, "", "plan")
	n := max(1, b.Breadth)
	order := r.perm(len(rootAspects))
	var topics strings.Builder
	for i := range n {
		name := rootAspects[order[i%len(rootAspects)]]
		if i >= len(rootAspects) {
			name += fmt.Sprintf(" Part %d", i/len(rootAspects)+1)
		}
		lower := strings.ToLower(name)
		fmt.Fprintf(&topics, "### %s (Depth: 0)\n- Status: Pending\n", name)
		fmt.Fprintf(&topics, "- Description: The %s that an answer to the question depends on, drawn from published evidence.\n", lower)
		topics.WriteString("- Acceptance Criteria:\n")
		for _, c := range r.perm(len(criteriaForms))[:2+r.intn(3)] {
			fmt.Fprintf(&topics, "  - "+criteriaForms[c]+"\n", lower)
		}
		topics.WriteString("\n")
	}
	body := fmt.Sprintf(`# Research Plan

## Metadata
- Topic: %s
- Breadth: %d
- Depth: %d

## Topics

%s## Completion Status
- Total Topics: %d
- Complete: 0
- In Progress: 0
- Pending: %d
`, oneLine(b.Question), b.Breadth, b.Depth, topics.String(), n, n)
	return output{body: body, text: fmt.Sprintf("Planned %d depth-0 topics.", n)}
}

// recovery writes notes on a failed attempt. The mock cannot diagnose
// anything, so it gives the advice that fits its own failure kinds.
func recovery(b agents.Brief) output {
	subject := "the session"
	if b.Topic != "" {
		subject = fmt.Sprintf("the topic %q", b.Topic)
	}
	body := fmt.Sprintf(`## Recovery notes

- Cause: the previous attempt on %s did not leave a valid output file; it
  either stopped early or wrote text without the required sections.
- Retry: write the output file first, with every required heading, then
  improve it; keep all writes inside the workspace.
`, subject)
	return output{body: body, text: oneLine(body)}
}

package mock

import (
	"fmt"

	"github.com/rgit-dev/rgit/agents"
)

// rejected is a reviewer that is never satisfied: a well-formed verdict
// rejecting what it reads, with one gap, so the loop researches the topic
// again (and a session can be driven to its iteration limit). Phases
// other than the reviews run as usual.
func rejected(task agents.Task) (agents.Result, error) {
	if task.Phase != agents.PhaseReview && task.Phase != agents.PhaseFinalReview {
		return work(task)
	}
	what := "the report"
	if task.Brief.Topic != "" {
		what = "the findings on " + phrase(task.Brief.Topic)
	}
	return deliver(task, render(verdict{Verdict: "reject", Summary: fmt.Sprintf("%s are not yet supported well enough.", what),
		Gaps: []string{fmt.Sprintf("A primary source for %s.", what)}, ShouldContinue: true}, 0))
}

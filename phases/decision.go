package phases

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/rgit-dev/rgit/agents"
)

// Decision is a review's answer, the structured loop decision of seed 003:
// {"verdict": "accept"|"reject", "summary": ..., "gaps": [...]}.
type Decision struct {
	Verdict string   `json:"verdict"`
	Summary string   `json:"summary"`
	Gaps    []string `json:"gaps"`
}

// Accepted says whether the review accepted.
func (d Decision) Accepted() bool { return d.Verdict == decisionAccept }

// body is the decision for a commit message body.
func (d Decision) body() string {
	s := d.Summary
	if len(d.Gaps) > 0 {
		s += "\n\nGaps:\n" + mdList(d.Gaps)
	}
	return s
}

// parseDecision finds the last JSON object with a valid verdict in text.
func parseDecision(text string) (Decision, error) {
	for end := strings.LastIndexByte(text, '}'); end >= 0; end = strings.LastIndexByte(text[:end], '}') {
		for start := strings.LastIndexByte(text[:end], '{'); start >= 0; start = strings.LastIndexByte(text[:start], '{') {
			var v Decision
			if json.Unmarshal([]byte(text[start:end+1]), &v) != nil {
				continue
			}
			v.Verdict = strings.ToLower(strings.TrimSpace(v.Verdict))
			switch v.Verdict {
			case "accept", "accepted", "approve", "approved":
				v.Verdict = decisionAccept
			case "reject", "rejected", "revise":
				v.Verdict = decisionReject
			default:
				continue
			}
			v.Summary = cleanLine(v.Summary)
			var gaps []string
			for _, g := range v.Gaps {
				if g = cleanLine(g); g != "" {
					gaps = append(gaps, g)
				}
			}
			v.Gaps = gaps
			return v, nil
		}
	}
	return Decision{}, fmt.Errorf(`no verdict: expected a JSON object {"verdict": "accept"|"reject", "summary": ..., "gaps": [...]}`)
}

// decisionGate is the review phases' gate: a decision in the final
// message, or else in the output file, stored into v.
func decisionGate(out string, v *Decision) func(agents.Result) error {
	return func(res agents.Result) error {
		var err error
		if *v, err = parseDecision(tail(res.Text, 64<<10)); err == nil {
			return nil
		}
		data, rerr := os.ReadFile(out)
		if rerr != nil {
			return err
		}
		*v, err = parseDecision(tail(string(data), 64<<10))
		return err
	}
}

package phases

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/rgit-dev/rgit/agents"
)

// Decision is a review's answer, the structured loop decision of seed 003:
//
//	{"verdict": "accept"|"reject", "summary": ..., "gaps": [...],
//	 "shouldContinue": bool, "nextSearchTopic": ..., "urlToSearch": ...}
//
// The last two are optional; they steer the topic's next research pass.
type Decision struct {
	Verdict         string   `json:"verdict"`
	Summary         string   `json:"summary"`
	Gaps            []string `json:"gaps"`
	ShouldContinue  bool     `json:"shouldContinue"`
	NextSearchTopic string   `json:"nextSearchTopic,omitempty"`
	URLToSearch     string   `json:"urlToSearch,omitempty"`
}

// Accepted says whether the review accepted: an "accept" verdict, or a
// decision not to continue with no gaps left (seed 003's loop rule).
func (d Decision) Accepted() bool {
	return d.Verdict == decisionAccept || !d.ShouldContinue && len(d.Gaps) == 0
}

// body is the decision for a commit message body: the summary, the gaps
// and the loop decision, so `git log` shows why the loop went on.
func (d Decision) body() string {
	s := d.Summary
	if len(d.Gaps) > 0 {
		s += "\n\nGaps:\n" + mdList(d.Gaps)
	}
	return s + "\n\n" + d.loopLine()
}

// loopLine is the loop decision in one line.
func (d Decision) loopLine() string {
	s := "Loop decision: stop"
	if d.ShouldContinue {
		s = "Loop decision: continue"
	}
	if d.NextSearchTopic != "" {
		s += "; next search topic: " + d.NextSearchTopic
	}
	if d.URLToSearch != "" {
		s += "; URL to search: " + d.URLToSearch
	}
	return s
}

// decisionShape is the contract, quoted in parse errors so the recovery
// prompt tells the agent exactly what to write.
const decisionShape = `{"verdict": "accept"|"reject", "summary": "...", "gaps": ["..."], "shouldContinue": true|false, "nextSearchTopic": "...", "urlToSearch": "https://..."}`

// parseDecision reads the last JSON object in text that carries a
// "verdict" or "shouldContinue" and validates it. Earlier objects and prose
// around it are ignored; a malformed last decision is an error naming the
// field, never skipped, since it is the agent's answer.
func parseDecision(text string) (Decision, error) {
	for end := strings.LastIndexByte(text, '}'); end >= 0; end = strings.LastIndexByte(text[:end], '}') {
		for start := strings.LastIndexByte(text[:end], '{'); start >= 0; start = strings.LastIndexByte(text[:start], '{') {
			var raw map[string]json.RawMessage
			if json.Unmarshal([]byte(text[start:end+1]), &raw) != nil {
				continue
			}
			_, hasVerdict := raw["verdict"]
			_, hasContinue := raw["shouldContinue"]
			if !hasVerdict && !hasContinue {
				continue
			}
			return validDecision(raw)
		}
	}
	return Decision{}, fmt.Errorf("%w: expected a JSON object %s", errNoDecision, decisionShape)
}

// errNoDecision: the text holds no decision object at all.
var errNoDecision = errors.New("no decision")

// validDecision checks each field's type and value; a missing verdict or
// shouldContinue is derived from the other.
func validDecision(raw map[string]json.RawMessage) (Decision, error) {
	var d Decision
	var verdict string
	var cont *bool
	fields := []struct {
		name string
		into any
	}{{"verdict", &verdict}, {"summary", &d.Summary}, {"gaps", &d.Gaps}, {"shouldContinue", &cont},
		{"nextSearchTopic", &d.NextSearchTopic}, {"urlToSearch", &d.URLToSearch}}
	for _, f := range fields {
		v, ok := raw[f.name]
		if !ok {
			continue
		}
		if err := json.Unmarshal(v, f.into); err != nil {
			return Decision{}, fmt.Errorf("malformed decision: %q has the wrong type (%s); expected %s", f.name, oneLine(string(v)), decisionShape)
		}
	}
	d.Gaps = cleanList(d.Gaps)
	d.Summary = cleanLine(d.Summary)
	d.NextSearchTopic = cleanLine(d.NextSearchTopic)
	d.URLToSearch = cleanLine(d.URLToSearch)
	if d.URLToSearch != "" {
		if u, err := url.Parse(d.URLToSearch); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return Decision{}, fmt.Errorf("malformed decision: \"urlToSearch\" %q is not an http(s) URL", oneLine(d.URLToSearch))
		}
	}
	switch strings.ToLower(strings.TrimSpace(verdict)) {
	case "accept", "accepted", "approve", "approved":
		d.Verdict = decisionAccept
	case "reject", "rejected", "revise":
		d.Verdict = decisionReject
	case "":
		if _, ok := raw["verdict"]; ok || cont == nil {
			return Decision{}, fmt.Errorf("malformed decision: \"verdict\" is empty; expected %s", decisionShape)
		}
		d.Verdict = decisionReject
		if !*cont && len(d.Gaps) == 0 {
			d.Verdict = decisionAccept
		}
	default:
		return Decision{}, fmt.Errorf("malformed decision: \"verdict\" %q is neither \"accept\" nor \"reject\"", oneLine(verdict))
	}
	if cont == nil {
		d.ShouldContinue = d.Verdict == decisionReject
	} else {
		d.ShouldContinue = *cont
	}
	if d.Verdict == decisionAccept && d.ShouldContinue {
		return Decision{}, fmt.Errorf(`malformed decision: "verdict" "accept" contradicts "shouldContinue": true`)
	}
	return d, nil
}

// cleanList cleans each item and drops the empty ones.
func cleanList(items []string) []string {
	var out []string
	for _, it := range items {
		if it = cleanLine(it); it != "" {
			out = append(out, it)
		}
	}
	return out
}

// decisionGate is the review phases' gate: a decision in the final
// message, or else in the output file, stored into v. A malformed
// decision fails the gate with the parse error, which the recovery prompt
// shows the agent.
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
		var ferr error
		if *v, ferr = parseDecision(tail(string(data), 64<<10)); ferr != nil && !errors.Is(err, errNoDecision) {
			return err // the final message's malformed decision says more
		}
		return ferr
	}
}

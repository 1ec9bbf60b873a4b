package phases

import "strings"

// LoopDecision is state.json's loop_decision: the last review's structured
// decision (seed 003), with the topic and iteration it was made at.
type LoopDecision struct {
	Topic     string `json:"topic"`
	Iteration int    `json:"iteration"`
	Decision
}

// NextSearch is what a review asked the topic's next research pass to
// look at; it becomes that prompt's $next_search_topic and $url_to_search.
type NextSearch struct {
	Topic string `json:"nextSearchTopic,omitempty"`
	URL   string `json:"urlToSearch,omitempty"`
}

// recordDecision keeps a topic review's decision in the state: as the
// session's loop_decision, and, while the topic goes on, as the steer for
// its next research pass.
func (s *State) recordDecision(topic string, d Decision) {
	s.LoopDecision = &LoopDecision{Topic: topic, Iteration: s.Iteration, Decision: d}
	if s.NextSearch == nil {
		s.NextSearch = map[string]NextSearch{}
	}
	if d.Accepted() || d.NextSearchTopic == "" && d.URLToSearch == "" {
		delete(s.NextSearch, topic)
		return
	}
	s.NextSearch[topic] = NextSearch{Topic: d.NextSearchTopic, URL: d.URLToSearch}
}

// decisionLine is the loop decision a review commit's body records
// ("continue; next search topic: ..."), "" when there is none.
func decisionLine(body string) string {
	for line := range strings.Lines(body) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "Loop decision: "); ok {
			return rest
		}
	}
	return ""
}

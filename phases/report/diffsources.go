package report

import "slices"

// SourcesDiff compares what the reports cite, by Citation.Key: overall,
// and per topic (the topic whose heading a citation is under; "" outside
// any topic).
type SourcesDiff struct {
	Both   []string       `json:"both"`
	OnlyA  []string       `json:"only_a"`
	OnlyB  []string       `json:"only_b"`
	Topics []TopicSources `json:"topics"`
}

// TopicSources is the sources diff of one topic.
type TopicSources struct {
	Topic string   `json:"topic"`
	Both  []string `json:"both"`
	OnlyA []string `json:"only_a"`
	OnlyB []string `json:"only_b"`
}

// citedKeys returns the distinct keys a report cites, overall and per
// topic, each in order of first citation, and the topics in order of
// first citation.
func citedKeys(s *Session) (all []string, byTopic map[string][]string, topics []string) {
	byTopic = map[string][]string{}
	for _, c := range Citations(s.Report) {
		k := c.Key()
		if !slices.Contains(all, k) {
			all = append(all, k)
		}
		t := TopicOf(c.Section, s.Plan)
		if _, seen := byTopic[t]; !seen {
			topics = append(topics, t)
		}
		if !slices.Contains(byTopic[t], k) {
			byTopic[t] = append(byTopic[t], k)
		}
	}
	return all, byTopic, topics
}

// splitKeys sorts the keys of a and b into both, only a and only b; each
// list keeps the order of its side.
func splitKeys(a, b []string) (both, onlyA, onlyB []string) {
	both, onlyA, onlyB = []string{}, []string{}, []string{}
	for _, k := range a {
		if slices.Contains(b, k) {
			both = append(both, k)
		} else {
			onlyA = append(onlyA, k)
		}
	}
	for _, k := range b {
		if !slices.Contains(a, k) {
			onlyB = append(onlyB, k)
		}
	}
	return both, onlyA, onlyB
}

// compareSources compares the sources the two reports cite, overall and
// per topic; topics come in A's order, then those only B cites.
func compareSources(a, b *Session) SourcesDiff {
	allA, topicA, orderA := citedKeys(a)
	allB, topicB, orderB := citedKeys(b)
	var d SourcesDiff
	d.Both, d.OnlyA, d.OnlyB = splitKeys(allA, allB)
	d.Topics = []TopicSources{}
	order := append([]string(nil), orderA...)
	for _, t := range orderB {
		if !slices.Contains(order, t) {
			order = append(order, t)
		}
	}
	for _, t := range order {
		ts := TopicSources{Topic: t}
		ts.Both, ts.OnlyA, ts.OnlyB = splitKeys(topicA[t], topicB[t])
		d.Topics = append(d.Topics, ts)
	}
	return d
}

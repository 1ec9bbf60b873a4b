package report

import "github.com/rgit-dev/rgit/phases/plan"

// Diff compares two sessions, A and B: their plans, the sources each
// report cites, their reports section by section, and their usage. Its
// JSON keys are snake_case for the shared --json schema.
type Diff struct {
	A        Side          `json:"a"`
	B        Side          `json:"b"`
	Topics   TopicsDiff    `json:"topics"`
	Sources  SourcesDiff   `json:"sources"`
	Sections []SectionDiff `json:"sections"`
	Usage    UsageDiff     `json:"usage"`
}

// Side names one of the sessions compared.
type Side struct {
	Name     string `json:"name"`
	Branch   string `json:"branch"`
	Head     string `json:"head"`
	Question string `json:"question"`
}

// TopicsDiff is the plan diff: topics only in B (added), only in A
// (removed), in both with another status (changed); topics match by name.
type TopicsDiff struct {
	Added     []TopicChange `json:"added"`
	Removed   []TopicChange `json:"removed"`
	Changed   []TopicChange `json:"changed"`
	Unchanged int           `json:"unchanged"`
}

// TopicChange is one topic of the plan diff; a status is "" on the side
// that lacks the topic.
type TopicChange struct {
	Name    string `json:"name"`
	Parent  string `json:"parent"`
	Depth   int    `json:"depth"`
	StatusA string `json:"status_a"`
	StatusB string `json:"status_b"`
}

// Section statuses.
const (
	SectionUnchanged = "unchanged"
	SectionChanged   = "changed"
	SectionOnlyA     = "only_a"
	SectionOnlyB     = "only_b"
)

// SectionDiff is one section of the reports, matched by heading path.
type SectionDiff struct {
	Path    []string `json:"path"`
	Status  string   `json:"status"`
	Added   int      `json:"added"`
	Removed int      `json:"removed"`
	Hunks   []Hunk   `json:"hunks"`
}

// Compare diffs session a against session b.
func Compare(a, b *Session) Diff {
	d := Diff{A: sideOf(a), B: sideOf(b), Topics: compareTopics(a.Plan, b.Plan),
		Sources: compareSources(a, b), Sections: compareSections(a.Report, b.Report), Usage: compareUsage(a, b)}
	return d
}

func sideOf(s *Session) Side {
	return Side{Name: s.Name, Branch: s.Branch, Head: s.Head, Question: s.Question}
}

func compareTopics(a, b *plan.Plan) TopicsDiff {
	d := TopicsDiff{Added: []TopicChange{}, Removed: []TopicChange{}, Changed: []TopicChange{}}
	topics := func(p *plan.Plan) []*plan.Topic {
		if p == nil {
			return nil
		}
		return p.Topics
	}
	find := func(p *plan.Plan, name string) *plan.Topic {
		if p == nil {
			return nil
		}
		return p.Find(name)
	}
	for _, t := range topics(a) {
		other := find(b, t.Name)
		switch {
		case other == nil:
			d.Removed = append(d.Removed, TopicChange{Name: t.Name, Parent: t.Parent, Depth: t.Depth, StatusA: string(t.Status)})
		case other.Status != t.Status:
			d.Changed = append(d.Changed, TopicChange{Name: t.Name, Parent: t.Parent, Depth: t.Depth, StatusA: string(t.Status), StatusB: string(other.Status)})
		default:
			d.Unchanged++
		}
	}
	for _, t := range topics(b) {
		if find(a, t.Name) == nil {
			d.Added = append(d.Added, TopicChange{Name: t.Name, Parent: t.Parent, Depth: t.Depth, StatusB: string(t.Status)})
		}
	}
	return d
}

package report

import (
	"slices"
	"strings"

	"github.com/rgit-dev/rgit/phases/plan"
)

// What the research is about in the JSON export: the plan tree as a flat
// list in plan order, each topic naming its parent, with the counts by
// status; the report's sources and its citations.

type exportPlan struct {
	Breadth int           `json:"breadth"`
	Depth   int           `json:"depth"`
	Counts  exportCounts  `json:"counts"`
	Topics  []exportTopic `json:"topics"`
}

type exportCounts struct {
	Total      int `json:"total"`
	Complete   int `json:"complete"`
	InReview   int `json:"in_review"`
	InProgress int `json:"in_progress"`
	Pending    int `json:"pending"`
}

type exportTopic struct {
	Name        string   `json:"name"`
	Depth       int      `json:"depth"`
	Status      string   `json:"status"`
	Parent      string   `json:"parent"`
	Description string   `json:"description"`
	Criteria    []string `json:"acceptance_criteria"`
	Exhausted   bool     `json:"exhausted"`
}

func exportPlanOf(p *plan.Plan, exhausted []string) *exportPlan {
	if p == nil {
		return nil
	}
	c := p.Counts()
	out := &exportPlan{Breadth: p.Breadth, Depth: p.Depth, Topics: []exportTopic{},
		Counts: exportCounts{c.Total, c.Complete, c.InReview, c.InProgress, c.Pending}}
	for _, t := range p.Topics {
		out.Topics = append(out.Topics, exportTopic{Name: t.Name, Depth: t.Depth, Status: string(t.Status), Parent: t.Parent,
			Description: t.Description, Criteria: orEmpty(t.Criteria), Exhausted: slices.Contains(exhausted, t.Name)})
	}
	return out
}

// TopicOf names the plan topic a citation belongs to: the deepest heading
// of its section path that is a topic's name (in any case), as syntheses
// give each topic a heading. "" when none is.
func TopicOf(section []string, p *plan.Plan) string {
	if p == nil {
		return ""
	}
	for i := len(section) - 1; i >= 0; i-- {
		for _, t := range p.Topics {
			if strings.EqualFold(strings.TrimSpace(section[i]), t.Name) {
				return t.Name
			}
		}
	}
	return ""
}

type exportSource struct {
	Number int    `json:"number"`
	Text   string `json:"text"`
	URL    string `json:"url"`
	Path   string `json:"path"`
	Line   int    `json:"line"`
}

type exportCitation struct {
	Kind    string   `json:"kind"`
	Text    string   `json:"text"`
	Line    int      `json:"line"`
	Section []string `json:"section"`
	Topic   string   `json:"topic"`
	Key     string   `json:"key"`
	Number  int      `json:"number"`
	Path    string   `json:"path"`
	From    int      `json:"from"`
	To      int      `json:"to"`
	URL     string   `json:"url"`
}

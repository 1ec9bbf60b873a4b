package report

import (
	_ "embed"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/phases/plan"
)

// SchemaVersion is the version of the JSON export, its "schema_version".
// It changes only when a field is removed, renamed or changes meaning;
// tools should ignore nothing silently and check it.
const SchemaVersion = 1

//go:embed schema/export.v1.json
var schemaV1 []byte

// Schema returns the JSON Schema (draft 2020-12) of the export, which
// documents every field.
func Schema() []byte { return append([]byte(nil), schemaV1...) }

// The export's types mirror schema/export.v1.json; every key is always
// present, unknown values being "", 0, null or [], so a consumer never has
// to guess whether a key was forgotten.
type exportDoc struct {
	SchemaVersion int              `json:"schema_version"`
	Generator     string           `json:"generator"`
	Session       exportSession    `json:"session"`
	Plan          *exportPlan      `json:"plan"`
	Sources       []exportSource   `json:"sources"`
	Citations     []exportCitation `json:"citations"`
	Usage         exportUsage      `json:"usage"`
	Report        exportReport     `json:"report"`
}

type exportSession struct {
	Name          string       `json:"name"`
	Branch        string       `json:"branch"`
	Head          string       `json:"head"`
	Question      string       `json:"question"`
	StartedAt     *string      `json:"started_at"`
	UpdatedAt     *string      `json:"updated_at"`
	Complete      bool         `json:"complete"`
	LimitReached  bool         `json:"limit_reached"`
	Iteration     int          `json:"iteration"`
	MaxIterations int          `json:"max_iterations"`
	Breadth       int          `json:"breadth"`
	Depth         int          `json:"depth"`
	Runs          int          `json:"runs"`
	Agents        exportAgents `json:"agents"`
	Exhausted     []string     `json:"exhausted"`
}

type exportAgents struct {
	Research string   `json:"research"`
	Review   string   `json:"review"`
	Fallback []string `json:"fallback"`
	Used     []string `json:"used"`
}

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

type exportReport struct {
	Path     string `json:"path"`
	Markdown string `json:"markdown"`
}

// RenderJSON writes the session as the versioned JSON export: metadata,
// the plan tree with statuses, the report's sources and citations, usage
// per backend, per kind of phase and per phase commit, and the report's
// Markdown.
func RenderJSON(w io.Writer, s *Session) error {
	doc := exportDoc{SchemaVersion: SchemaVersion, Generator: "rgit", Session: exportSessionOf(s),
		Plan: exportPlanOf(s.Plan, s.Exhausted), Usage: exportUsageOf(s),
		Sources: []exportSource{}, Citations: []exportCitation{},
		Report: exportReport{Path: s.ReportPath, Markdown: string(s.Report)}}
	parsed := Parse(s.Report)
	for _, src := range parsed.Sources {
		doc.Sources = append(doc.Sources, exportSource(src))
	}
	for _, c := range parsed.Citations {
		doc.Citations = append(doc.Citations, exportCitation{Kind: string(c.Kind), Text: c.Text, Line: c.Line,
			Section: orEmpty(c.Section), Topic: TopicOf(c.Section, s.Plan), Key: c.Key(), Number: c.Number,
			Path: c.Path, From: c.From, To: c.To, URL: c.URL})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // the Markdown stays readable; JSON needs no HTML escaping
	return enc.Encode(doc)
}

func exportSessionOf(s *Session) exportSession {
	return exportSession{Name: s.Name, Branch: s.Branch, Head: s.Head, Question: s.Question,
		StartedAt: timeOrNull(s.Started), UpdatedAt: timeOrNull(s.Updated), Complete: s.Complete,
		LimitReached: s.LimitReached, Iteration: s.Iteration, MaxIterations: s.MaxIterations,
		Breadth: s.Breadth, Depth: s.Depth, Runs: s.Runs, Exhausted: orEmpty(s.Exhausted),
		Agents: exportAgents{Research: s.Agents.Research, Review: s.Agents.Review,
			Fallback: orEmpty(s.Agents.Fallback), Used: orEmpty(s.AgentsUsed())}}
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

func timeOrNull(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.UTC().Format(time.RFC3339)
	return &s
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

package report

import (
	_ "embed"
	"encoding/json"
	"io"
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

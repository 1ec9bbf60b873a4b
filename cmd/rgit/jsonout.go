package main

import (
	"encoding/json"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/agents/registry"
	"github.com/rgit-dev/rgit/phases"
)

// The one JSON schema of `status`, `list`, `log` and `agents` with --json
// (docs/json.md describes it). Every key is snake_case, a session is the
// same object everywhere, a commit is the same object in `log` and in
// `status`'s recent commits, and times are RFC 3339 in UTC. Fields are
// only ever added; jsonSchema changes if one is removed or changes type.
const jsonSchema = "rgit/v1"

type jsonSession struct {
	Name          string                `json:"name"`
	Branch        string                `json:"branch"`
	Topic         string                `json:"topic"`
	Stage         string                `json:"stage"`
	Phase         string                `json:"phase"`
	Iteration     int                   `json:"iteration"`
	MaxIterations int                   `json:"max_iterations"`
	Topics        jsonCounts            `json:"topics"`
	Complete      bool                  `json:"complete"`
	Exhausted     []string              `json:"exhausted"`
	Running       *jsonLock             `json:"running"` // null when no run holds the session
	Head          string                `json:"head"`
	Updated       string                `json:"updated"`
	Usage         map[string]jsonUsage  `json:"usage"`       // by backend
	UsageTotal    jsonTotal             `json:"usage_total"` // budgetview.go
	Budget        *jsonBudget           `json:"budget"`      // null when none
	Tree          string                `json:"tree,omitempty"`
	Recent        []jsonCommit          `json:"recent,omitempty"`    // status only, newest first
	Citations     *phases.CitationTally `json:"citations,omitempty"` // the report's URL citations its sources back
}

type jsonCounts struct {
	Total      int `json:"total"`
	Complete   int `json:"complete"`
	InReview   int `json:"in_review"`
	InProgress int `json:"in_progress"`
	Pending    int `json:"pending"`
}

type jsonLock struct {
	PID     int    `json:"pid"`
	Host    string `json:"host"`
	Started string `json:"started"`
}

type jsonUsage struct {
	Calls        int     `json:"calls"`
	InputTokens  int64   `json:"input_tokens"`
	OutputTokens int64   `json:"output_tokens"`
	CachedTokens int64   `json:"cached_tokens"`
	CostUSD      float64 `json:"cost_usd"`
	Seconds      float64 `json:"seconds"`
}

// jsonCommit is one phase commit, read from its trailers.
type jsonCommit struct {
	Commit     string  `json:"commit"`
	When       string  `json:"when"`
	Phase      string  `json:"phase"`
	Iteration  int     `json:"iteration"`
	Topic      string  `json:"topic"`
	Verdict    string  `json:"verdict"`
	Backend    string  `json:"backend"`
	Agent      string  `json:"agent"` // backend:model as resolved
	DurationMS int64   `json:"duration_ms"`
	Tokens     int64   `json:"tokens"`
	CostUSD    float64 `json:"cost_usd"`
	Summary    string  `json:"summary"`
}

type jsonAgent struct {
	Backend string   `json:"backend"`
	Found   bool     `json:"found"`
	Version string   `json:"version"`
	Path    string   `json:"path"`
	Can     []string `json:"can"`
	Missing string   `json:"missing"`
}

type jsonAuto struct {
	Research string `json:"research"`
	Review   string `json:"review"`
	Reason   string `json:"reason"`
}

type jsonError struct {
	Message    string `json:"message"`
	Hint       string `json:"hint"`
	ExitStatus int    `json:"exit_status"`
}

func jsonTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func toJSONSession(s phases.SessionInfo) jsonSession {
	out := jsonSession{Name: s.Name, Branch: s.Branch, Topic: s.Topic, Stage: string(s.Stage), Phase: string(s.Phase),
		Iteration: s.Iteration, MaxIterations: s.MaxIter, Complete: s.Complete, Exhausted: nonNil(s.Exhausted),
		Head: s.Head, Updated: jsonTime(s.Updated), Usage: map[string]jsonUsage{}, Tree: s.Tree,
		Topics: jsonCounts{Total: s.Counts.Total, Complete: s.Counts.Complete, InReview: s.Counts.InReview,
			InProgress: s.Counts.InProgress, Pending: s.Counts.Pending}}
	if s.Lock != nil {
		out.Running = &jsonLock{PID: s.Lock.PID, Host: s.Lock.Host, Started: jsonTime(s.Lock.Started)}
	}
	for _, b := range slices.Sorted(maps.Keys(s.Usage)) {
		u := s.Usage[b]
		out.Usage[b] = jsonUsage{Calls: u.Calls, InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
			CachedTokens: u.CachedTokens, CostUSD: u.CostUSD, Seconds: u.Seconds}
	}
	out.UsageTotal, out.Budget = toJSONTotal(s), toJSONBudget(s)
	for _, r := range s.Recent {
		out.Recent = append(out.Recent, toJSONCommit(r))
	}
	out.Citations = s.Citations
	return out
}

func toJSONCommit(r phases.PhaseRow) jsonCommit {
	c := jsonCommit{Commit: r.Hash, When: jsonTime(r.When), Phase: string(r.Phase), Topic: r.Topic, Verdict: string(r.Verdict),
		Backend: r.Agent, Agent: r.Model, Summary: r.Summary}
	c.Iteration, _ = strconv.Atoi(r.Iteration)
	c.Tokens, _ = strconv.ParseInt(r.Tokens, 10, 64)
	c.CostUSD, _ = strconv.ParseFloat(r.Cost, 64)
	if d, err := time.ParseDuration(r.Duration); err == nil {
		c.DurationMS = d.Milliseconds()
	}
	return c
}

func toJSONAgent(s registry.Status) jsonAgent {
	return jsonAgent{Backend: s.Backend, Found: s.Found, Version: s.Version, Path: s.Path, Can: nonNil(s.Can), Missing: s.Missing}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// writeJSON prints v, indented, with the schema name first.
func writeJSON(w io.Writer, fields map[string]any) error {
	fields["schema"] = jsonSchema
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // "<model>" stays readable
	return enc.Encode(fields)
}

// wantsJSON says whether the command line asked for --json, so errors are
// JSON too.
func wantsJSON(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--json" || a == "-json" || strings.HasPrefix(a, "--json=true") {
			return true
		}
	}
	return false
}

// printJSONError writes err as {"error": {...}} on standard error.
func printJSONError(io *IO, err error) {
	_ = writeJSON(io.Err, map[string]any{"error": jsonError{Message: err.Error(), Hint: hintFor(err), ExitStatus: exitCode(err)}})
}

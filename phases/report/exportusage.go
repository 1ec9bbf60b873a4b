package report

import "time"

// Usage in the JSON export: per backend as state.json counts it, and per
// phase as the commit trailers record it. Times are seconds, costs US
// dollars.

type exportUsage struct {
	Total     exportBackend   `json:"total"`
	ByBackend []exportBackend `json:"by_backend"`
	ByPhase   []exportPhaseT  `json:"by_phase"`
	Phases    []exportPhase   `json:"phases"`
}

type exportBackend struct {
	Backend      string  `json:"backend"`
	Calls        int     `json:"calls"`
	InputTokens  int64   `json:"input_tokens"`
	OutputTokens int64   `json:"output_tokens"`
	CachedTokens int64   `json:"cached_tokens"`
	CostUSD      float64 `json:"cost_usd"`
	Seconds      float64 `json:"seconds"`
}

type exportPhaseT struct {
	Phase   string  `json:"phase"`
	Commits int     `json:"commits"`
	Tokens  int64   `json:"tokens"`
	CostUSD float64 `json:"cost_usd"`
	Seconds float64 `json:"seconds"`
}

type exportPhase struct {
	Commit    string  `json:"commit"`
	Time      *string `json:"time"`
	Phase     string  `json:"phase"`
	Iteration int     `json:"iteration"`
	Topic     string  `json:"topic"`
	Agent     string  `json:"agent"`
	Model     string  `json:"model"`
	Verdict   string  `json:"verdict"`
	Seconds   float64 `json:"seconds"`
	Tokens    int64   `json:"tokens"`
	CostUSD   float64 `json:"cost_usd"`
	Summary   string  `json:"summary"`
}

func exportBackendOf(name string, u Usage) exportBackend {
	return exportBackend{Backend: name, Calls: u.Calls, InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CachedTokens: u.CachedTokens, CostUSD: u.CostUSD, Seconds: u.Seconds}
}

func exportUsageOf(s *Session) exportUsage {
	out := exportUsage{Total: exportBackendOf("total", s.Totals()), ByBackend: []exportBackend{},
		ByPhase: []exportPhaseT{}, Phases: []exportPhase{}}
	for _, b := range s.Backends() {
		out.ByBackend = append(out.ByBackend, exportBackendOf(b, s.Usage[b]))
	}
	for _, t := range PhaseTotals(s.Phases) {
		out.ByPhase = append(out.ByPhase, exportPhaseT{Phase: t.Phase, Commits: t.Commits, Tokens: t.Tokens,
			CostUSD: t.CostUSD, Seconds: t.Duration.Seconds()})
	}
	for _, p := range s.Phases {
		out.Phases = append(out.Phases, exportPhase{Commit: p.Commit, Time: timeOrNull(p.When), Phase: p.Phase,
			Iteration: p.Iteration, Topic: p.Topic, Agent: p.Agent, Model: p.Model, Verdict: p.Verdict,
			Seconds: p.Duration.Seconds(), Tokens: p.Tokens, CostUSD: p.CostUSD, Summary: p.Summary})
	}
	return out
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

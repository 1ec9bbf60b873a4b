package report

import (
	"bytes"
	"fmt"
	"slices"
)

// UsageDiff puts the two sessions' usage and time side by side.
type UsageDiff struct {
	A        UsageSide      `json:"a"`
	B        UsageSide      `json:"b"`
	Backends []BackendUsage `json:"backends"`
}

// UsageSide is one session's totals.
type UsageSide struct {
	Calls          int     `json:"calls"`
	Tokens         int64   `json:"tokens"`
	CostUSD        float64 `json:"cost_usd"`
	AgentSeconds   float64 `json:"agent_seconds"`   // time inside agent calls
	ElapsedSeconds float64 `json:"elapsed_seconds"` // start to last commit
	Iterations     int     `json:"iterations"`
	MaxIterations  int     `json:"max_iterations"`
	PhaseCommits   int     `json:"phase_commits"`
	Topics         int     `json:"topics"`
	TopicsComplete int     `json:"topics_complete"`
}

// BackendUsage is one backend's usage in each session; nil where the
// session did not use it.
type BackendUsage struct {
	Backend string       `json:"backend"`
	A       *UsageTotals `json:"a"`
	B       *UsageTotals `json:"b"`
}

// UsageTotals is a backend's usage in one session.
type UsageTotals struct {
	Calls   int     `json:"calls"`
	Tokens  int64   `json:"tokens"`
	CostUSD float64 `json:"cost_usd"`
	Seconds float64 `json:"seconds"`
}

func usageSide(s *Session) UsageSide {
	t := s.Totals()
	u := UsageSide{Calls: t.Calls, Tokens: t.Tokens(), CostUSD: t.CostUSD, AgentSeconds: t.Seconds,
		ElapsedSeconds: s.Elapsed().Seconds(), Iterations: s.Iteration, MaxIterations: s.MaxIterations,
		PhaseCommits: len(s.Phases)}
	if s.Plan != nil {
		c := s.Plan.Counts()
		u.Topics, u.TopicsComplete = c.Total, c.Complete
	}
	return u
}

func compareUsage(a, b *Session) UsageDiff {
	d := UsageDiff{A: usageSide(a), B: usageSide(b), Backends: []BackendUsage{}}
	names := append(a.Backends(), b.Backends()...)
	slices.Sort(names)
	for _, name := range slices.Compact(names) {
		bu := BackendUsage{Backend: name}
		if u, ok := a.Usage[name]; ok {
			bu.A = &UsageTotals{u.Calls, u.Tokens(), u.CostUSD, u.Seconds}
		}
		if u, ok := b.Usage[name]; ok {
			bu.B = &UsageTotals{u.Calls, u.Tokens(), u.CostUSD, u.Seconds}
		}
		d.Backends = append(d.Backends, bu)
	}
	return d
}

// writeUsage is the text of the usage diff: the two sessions side by side.
func writeUsage(b *bytes.Buffer, u UsageDiff) {
	row := func(label, a, bb string) { fmt.Fprintf(b, "  %-16s %22s %22s\n", label, a, bb) }
	seconds := func(s float64) string { return formatSeconds(s) }
	fmt.Fprintf(b, "\nUsage and time\n")
	row("", "a", "b")
	row("calls", itoa(u.A.Calls), itoa(u.B.Calls))
	row("tokens", formatInt(u.A.Tokens), formatInt(u.B.Tokens))
	row("cost", formatCost(u.A.CostUSD), formatCost(u.B.CostUSD))
	row("agent time", seconds(u.A.AgentSeconds), seconds(u.B.AgentSeconds))
	row("elapsed", seconds(u.A.ElapsedSeconds), seconds(u.B.ElapsedSeconds))
	row("iterations", fmt.Sprintf("%d of %d", u.A.Iterations, u.A.MaxIterations), fmt.Sprintf("%d of %d", u.B.Iterations, u.B.MaxIterations))
	row("phase commits", itoa(u.A.PhaseCommits), itoa(u.B.PhaseCommits))
	row("topics complete", fmt.Sprintf("%d of %d", u.A.TopicsComplete, u.A.Topics), fmt.Sprintf("%d of %d", u.B.TopicsComplete, u.B.Topics))
	for _, bu := range u.Backends {
		side := func(t *UsageTotals) string {
			if t == nil {
				return "-"
			}
			return fmt.Sprintf("%d calls, %s tok", t.Calls, formatInt(t.Tokens))
		}
		row(bu.Backend, side(bu.A), side(bu.B))
	}
}

package report

import (
	"fmt"
	"strconv"
	"strings"
)

// metaRow is one line of the page's session block.
type metaRow struct {
	Label string
	Value string
	Code  bool // shown as code: names and branches
}

// usageRow is one row of a usage table.
type usageRow struct {
	Name, Calls, Tokens, Cost, Time string
}

// phaseRow is one phase commit in the page's history table.
type phaseRow struct {
	Commit, When, Phase, Topic, Agent, Verdict, Duration, Tokens, Cost string
}

// metaRows describes the session for the page: question, name, branch,
// dates, state, iterations, topics and agents. Unknown values are left out.
func metaRows(s *Session) []metaRow {
	var rows []metaRow
	add := func(label, value string, code bool) {
		if value != "" {
			rows = append(rows, metaRow{label, value, code})
		}
	}
	add("Question", s.Question, false)
	add("Session", s.Name, true)
	add("Branch", s.Branch, true)
	if len(s.Head) >= 12 {
		add("Commit", s.Head[:12], true)
	}
	add("Started", formatTime(s.Started), false)
	add("Updated", formatTime(s.Updated), false)
	if d := s.Elapsed(); d > 0 {
		add("Elapsed", formatSeconds(d.Seconds()), false)
	}
	add("State", sessionState(s), false)
	if s.MaxIterations > 0 {
		add("Iterations", fmt.Sprintf("%d of at most %d", s.Iteration, s.MaxIterations), false)
	}
	if s.Runs > 0 {
		add("Runs", strconv.Itoa(s.Runs), false)
	}
	if s.Plan != nil {
		c := s.Plan.Counts()
		add("Topics", fmt.Sprintf("%d of %d complete (breadth %d, depth %d)", c.Complete, c.Total, s.Plan.Breadth, s.Plan.Depth), false)
	}
	add("Research agent", s.Agents.Research, true)
	add("Review agent", s.Agents.Review, true)
	add("Fallback", strings.Join(s.Agents.Fallback, ", "), true)
	add("Agents used", strings.Join(s.AgentsUsed(), ", "), true)
	add("Exhausted topics", strings.Join(s.Exhausted, "; "), false)
	return rows
}

// facts is the one-line summary at the top of the page: state, topics,
// iterations, agents, cost and time.
func facts(s *Session) []string {
	var out []string
	if st := sessionState(s); st != "" {
		out = append(out, st)
	}
	if s.Plan != nil {
		c := s.Plan.Counts()
		out = append(out, fmt.Sprintf("%d of %d topics complete", c.Complete, c.Total))
	}
	if s.MaxIterations > 0 {
		out = append(out, fmt.Sprintf("%d of %d iterations", s.Iteration, s.MaxIterations))
	}
	if used := s.AgentsUsed(); len(used) > 0 {
		out = append(out, strings.Join(used, ", "))
	}
	t := s.Totals()
	if t.Tokens() > 0 {
		out = append(out, formatInt(t.Tokens())+" tokens")
	}
	if t.CostUSD > 0 {
		out = append(out, formatCost(t.CostUSD))
	}
	if d := s.Elapsed(); d > 0 {
		out = append(out, formatSeconds(d.Seconds()))
	}
	if !s.Updated.IsZero() {
		out = append(out, s.Updated.UTC().Format("2006-01-02"))
	}
	return out
}

// sessionState says in words where the session stands.
func sessionState(s *Session) string {
	switch {
	case s.Complete && s.LimitReached:
		return "complete (limit reached: some topics were not researched)"
	case s.Complete:
		return "complete"
	case s.LimitReached:
		return "limit reached"
	case s.Iteration > 0:
		return "in progress"
	}
	return ""
}

// usageRows is the usage per backend, with a total when there are several.
func usageRows(s *Session) []usageRow {
	var rows []usageRow
	row := func(name string, u Usage) usageRow {
		return usageRow{name, strconv.Itoa(u.Calls), formatInt(u.Tokens()), formatCost(u.CostUSD), formatSeconds(u.Seconds)}
	}
	for _, b := range s.Backends() {
		rows = append(rows, row(b, s.Usage[b]))
	}
	if len(rows) > 1 {
		rows = append(rows, row("total", s.Totals()))
	}
	return rows
}

// phaseTotalRows is the usage per kind of phase, from the trailers.
func phaseTotalRows(s *Session) []usageRow {
	var rows []usageRow
	for _, t := range PhaseTotals(s.Phases) {
		rows = append(rows, usageRow{t.Phase, strconv.Itoa(t.Commits), formatInt(t.Tokens), formatCost(t.CostUSD), formatSeconds(t.Duration.Seconds())})
	}
	return rows
}

// phaseRows is the history, one row per phase commit.
func phaseRows(s *Session) []phaseRow {
	rows := make([]phaseRow, 0, len(s.Phases))
	for _, p := range s.Phases {
		r := phaseRow{Commit: short(p.Commit), When: formatTime(p.When), Phase: p.Phase, Topic: p.Topic,
			Agent: p.Agent, Verdict: p.Verdict}
		if p.Duration > 0 {
			r.Duration = formatSeconds(p.Duration.Seconds())
		}
		if p.Tokens > 0 {
			r.Tokens = formatInt(p.Tokens)
		}
		if p.CostUSD > 0 {
			r.Cost = formatCost(p.CostUSD)
		}
		rows = append(rows, r)
	}
	return rows
}

func short(hash string) string {
	if len(hash) > 8 {
		return hash[:8]
	}
	return hash
}

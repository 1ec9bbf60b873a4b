// Package report turns a research session into the views people and tools
// read: the report laid out for a terminal, one self-contained HTML page,
// Markdown for git hosts, a versioned JSON export, and a section-aware diff
// of two sessions. It also finds a report's citations, which a later
// citation-verification gate reuses.
//
// The package is a pure library: it reads no git objects and no files and
// never prints. The caller fills a Session from state.json,
// research_plan.md, the report and the commit trailers, and every view
// returns bytes or writes to an io.Writer it is given. A report is written
// by agents, so it is untrusted input everywhere here: terminal output has
// control characters stripped, and HTML output has raw HTML dropped, unsafe
// link schemes removed and no resource that a browser would fetch.
package report

import (
	"slices"
	"time"

	"github.com/rgit-dev/rgit/phases/plan"
)

// Session is everything the views need to know about one research session.
// Zero values mean "unknown" and are left out of every view.
type Session struct {
	Name     string // session name, as in research/<name>
	Branch   string // "research/<name>"
	Head     string // the commit the data was read from, if any
	Question string // the original question (state.json original_topic)

	Started time.Time // state.json start_time
	Updated time.Time // the head commit's time

	Complete      bool // state.json is_complete
	LimitReached  bool // the iteration or time limit cut the research short
	Iteration     int
	MaxIterations int
	Breadth       int
	Depth         int
	Runs          int // rgit processes that worked on the session

	Agents    Agents
	Exhausted []string         // topics abandoned after repeated failures
	Usage     map[string]Usage // per backend, from state.json usage
	Phases    []Phase          // one row per phase commit, oldest first

	Plan       *plan.Plan // research_plan.md; nil when there is none
	ReportPath string     // "reports/<name>/report.md"
	Report     []byte     // the report's Markdown

	// FileLink maps a local citation's path ("src/sync/mutex.go") to a
	// link relative to where the rendered file will be read, or "" when
	// the file cannot be linked (a corpus outside the repository). Nil
	// links no files: local citations then point at the page's own list
	// of cited passages.
	FileLink func(path string) string
}

// Agents are the agent specs the session was configured with.
type Agents struct {
	Research string   // state.json model
	Review   string   // state.json review_model
	Fallback []string // state.json fallback
}

// Usage is what one backend cost over the session, as state.json counts it.
type Usage struct {
	Calls        int
	InputTokens  int64
	OutputTokens int64
	CachedTokens int64
	CostUSD      float64
	Seconds      float64
}

// Tokens is input plus output tokens.
func (u Usage) Tokens() int64 { return u.InputTokens + u.OutputTokens }

// Phase is one phase commit, read from its Rgit-* trailers.
type Phase struct {
	Commit    string
	When      time.Time
	Phase     string // Rgit-Phase: plan, research, review, synthesize, ...
	Iteration int    // Rgit-Iteration
	Topic     string // Rgit-Topic
	Agent     string // Rgit-Agent
	Model     string // Rgit-Model
	Verdict   string // Rgit-Verdict
	Duration  time.Duration
	Tokens    int64
	CostUSD   float64
	Summary   string // the commit's subject line
}

// AgentsUsed lists the distinct Rgit-Agent values of the phases, sorted:
// the agents that really worked, which can differ from the configured
// ones after a fallback.
func (s *Session) AgentsUsed() []string {
	var out []string
	for _, p := range s.Phases {
		if p.Agent != "" && !slices.Contains(out, p.Agent) {
			out = append(out, p.Agent)
		}
	}
	slices.Sort(out)
	return out
}

// Totals sums the usage of every backend.
func (s *Session) Totals() Usage {
	var t Usage
	for _, u := range s.Usage {
		t.Calls += u.Calls
		t.InputTokens += u.InputTokens
		t.OutputTokens += u.OutputTokens
		t.CachedTokens += u.CachedTokens
		t.CostUSD += u.CostUSD
		t.Seconds += u.Seconds
	}
	return t
}

// Backends returns the keys of Usage, sorted, so every view lists them in
// the same order.
func (s *Session) Backends() []string {
	out := make([]string, 0, len(s.Usage))
	for k := range s.Usage {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Elapsed is the wall-clock time from start to the last commit, or 0 when
// either is unknown.
func (s *Session) Elapsed() time.Duration {
	if s.Started.IsZero() || s.Updated.IsZero() || s.Updated.Before(s.Started) {
		return 0
	}
	return s.Updated.Sub(s.Started)
}

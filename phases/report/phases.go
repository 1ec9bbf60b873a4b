package report

import (
	"strconv"
	"strings"
	"time"
)

// PhaseFromTrailers reads one commit's Rgit-* trailers into a Phase;
// trailer returns a trailer's value, or "" when the commit has none.
// ok is false for a commit that is not a phase (no Rgit-Phase). Trailers
// come from commits that may have been fetched from anyone, so a value
// that does not parse counts as unknown (zero) rather than failing the
// whole view.
func PhaseFromTrailers(commit string, when time.Time, summary string, trailer func(key string) string) (p Phase, ok bool) {
	p = Phase{Commit: commit, When: when, Summary: summary, Phase: trailer("Rgit-Phase")}
	if p.Phase == "" {
		return Phase{}, false
	}
	p.Iteration, _ = strconv.Atoi(trailer("Rgit-Iteration"))
	p.Topic = trailer("Rgit-Topic")
	p.Agent = trailer("Rgit-Agent")
	p.Model = trailer("Rgit-Model")
	p.Verdict = trailer("Rgit-Verdict")
	if d, err := time.ParseDuration(trailer("Rgit-Duration")); err == nil && d > 0 {
		p.Duration = d
	}
	if n, err := strconv.ParseInt(trailer("Rgit-Tokens"), 10, 64); err == nil && n > 0 {
		p.Tokens = n
	}
	// Written as "%.4f"; a "$" is tolerated for hand-made commits.
	if c, err := strconv.ParseFloat(strings.TrimPrefix(trailer("Rgit-Cost"), "$"), 64); err == nil && c > 0 {
		p.CostUSD = c
	}
	return p, true
}

// PhaseTotal is the usage of every commit of one kind of phase.
type PhaseTotal struct {
	Phase    string
	Commits  int
	Duration time.Duration
	Tokens   int64
	CostUSD  float64
}

// PhaseTotals sums the phases by kind, in the order each kind first
// appears (plan, research, review, synthesize, ...).
func PhaseTotals(phases []Phase) []PhaseTotal {
	var out []PhaseTotal
	at := map[string]int{}
	for _, p := range phases {
		i, ok := at[p.Phase]
		if !ok {
			i = len(out)
			at[p.Phase] = i
			out = append(out, PhaseTotal{Phase: p.Phase})
		}
		t := &out[i]
		t.Commits++
		t.Duration += p.Duration
		t.Tokens += p.Tokens
		t.CostUSD += p.CostUSD
	}
	return out
}

// formatting helpers shared by the text views.

func formatCost(usd float64) string { return "$" + strconv.FormatFloat(usd, 'f', 4, 64) }

func formatInt(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 {
		return s
	}
	// Thousands separators: token counts run into the millions.
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// formatSeconds rounds a duration for people: milliseconds under a
// second, then seconds, then minutes.
func formatSeconds(sec float64) string {
	d := time.Duration(sec * float64(time.Second))
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	default:
		return d.Round(time.Second).String()
	}
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

package phases

import (
	"maps"
	"slices"
)

// SessionUsage is what the whole session has cost so far: every backend's
// totals summed, over every run (resumes included). state.json carries the
// per-backend totals and every run adds to the ones it restored, so this
// is the number a cost or token budget compares against, not the current
// process's calls only.
func (s *State) SessionUsage() Totals { return SumUsage(s.Usage) }

// SumUsage adds per-backend totals into one, in a fixed order (float sums
// depend on it, and the same state must print the same cost).
func SumUsage(by map[string]*Totals) Totals {
	var t Totals
	for _, b := range slices.Sorted(maps.Keys(by)) {
		u := by[b]
		if u == nil {
			continue
		}
		t.Calls += u.Calls
		t.InputTokens += u.InputTokens
		t.OutputTokens += u.OutputTokens
		t.CachedTokens += u.CachedTokens
		t.CostUSD += u.CostUSD
		t.Seconds += u.Seconds
	}
	return t
}

// Tokens is input plus output tokens.
func (t Totals) Tokens() int64 { return t.InputTokens + t.OutputTokens }

package phases

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
)

// octopus records the council's end on the session branch: one merge
// commit whose parents are the session head and every surviving member's
// head, its tree holding their directories, and state.json with how each
// member fared and the aggregate ranking, and the budget that stopped the
// members' research when one did.
func (r *run) octopus(ctx context.Context, runs, alive []*memberRun, limit Limit) error {
	start := r.clock.Now()
	c := r.state.Council
	merged := c.mergedUsage()
	c.Failed, c.Results = map[string]string{}, nil
	var keep, parents, rankings = []string{}, []string{}, []Ranking{}
	for _, mr := range runs {
		c.Results = append(c.Results, mr.rec)
		// A council a budget stopped merges again after a resume: only
		// what the member spent since the last merge is new.
		t := subTotals(mr.rec.Usage, merged[mr.m.Name])
		r.state.Usage[backendOf(mr.m.Spec)] = addTotals(r.state.Usage[backendOf(mr.m.Spec)], t)
		if !slices.Contains(alive, mr) {
			why := "research not complete"
			if mr.failed != nil {
				why = oneLine(Redact(mr.failed.Error()))
			}
			c.Failed[mr.m.Name] = why
			// Only survivors are merged: the failed member's work stays on its branch.
			if err := os.RemoveAll(r.lay.MemberDir(mr.m.Name)); err != nil {
				return fmt.Errorf("drop %s from the merge: %w", mr.m.Name, err)
			}
			continue
		}
		keep, parents = append(keep, mr.m.Name), append(parents, mr.rec.Head)
		if rk, ok := readRanking(r.lay, mr.m.Name); ok {
			rankings = append(rankings, rk)
		}
	}
	c.Ranking = aggregate(rankings, keep)
	if err := r.gatherSources(alive); err != nil {
		return err
	}
	if limit != "" {
		r.stopAt(limit) // with every member's usage counted above
	}
	r.state.Stage = StageSynthesize
	body := fmt.Sprintf("Members merged: %s.\nPeer ranking (mean rank, 1 is best):\n%s", strings.Join(keep, ", "), rankingList(c.Ranking))
	if len(c.Failed) > 0 {
		body += "\nLeft out:\n" + mdList(failedList(c.Failed))
	}
	hash, err := r.commit(ctx, record{phase: PhaseCouncilMerge, parents: parents, body: body,
		summary: fmt.Sprintf("council-merge: %d of %d members into %s", len(keep), len(runs), r.lay.Branch())})
	if err != nil {
		return err
	}
	r.done(PhaseCouncilMerge, "", outcome{}, hash, start)
	r.report(fmt.Sprintf("Phase 3: synthesis by %s", c.Synthesizer))
	return nil
}

func addTotals(t *Totals, u Totals) *Totals {
	if t == nil {
		t = &Totals{}
	}
	t.Calls += u.Calls
	t.InputTokens += u.InputTokens
	t.OutputTokens += u.OutputTokens
	t.CachedTokens += u.CachedTokens
	t.CostUSD += u.CostUSD
	t.Seconds += u.Seconds
	return t
}

func failedList(failed map[string]string) []string {
	var out []string
	for _, n := range slices.Sorted(mapKeys(failed)) {
		out = append(out, n+": "+failed[n])
	}
	return out
}

func mapKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

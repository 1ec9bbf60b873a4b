package phases

import (
	"fmt"
	"strings"
	"sync"
)

// councilSpend keeps a council's budget (--max-cost, --max-tokens) while
// its members research side by side, each on its own goroutine: the
// session's own spend plus every member's record, updated as each call
// lands. A member checks it before each research iteration after its
// first; once the budget leaves no room, every member stops where its
// report stands, the refinement and ranking rounds are skipped, and the
// synthesis carries the budget's banner, as a single-agent session does.
type councilSpend struct {
	mu     sync.Mutex
	budget *Budget
	usage  map[string]*Totals // "": the session's own, outside the members'; then each member's record
	active int                // members still researching: each may have a call in flight
	hit    Limit              // the budget that stopped research, once one did
}

// newCouncilSpend is nil when the session has no budget. The session's
// usage holds what an earlier merge took of the members' records, which
// are counted from the records themselves.
func newCouncilSpend(b *Budget, session map[string]*Totals, c *CouncilState, runs []*memberRun) *councilSpend {
	if !b.Limited() {
		return nil
	}
	var own Totals
	for _, t := range session {
		addTotals(&own, *t)
	}
	for _, t := range c.mergedUsage() {
		own = subTotals(own, t)
	}
	cs := &councilSpend{budget: b, usage: map[string]*Totals{"": &own}}
	for _, mr := range runs {
		cs.update(mr.m.Name, mr.rec.Usage)
		if !mr.rec.Complete {
			cs.active++
		}
	}
	return cs
}

// update records a member's usage so far.
func (cs *councilSpend) update(member string, t Totals) {
	if cs == nil {
		return
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.usage[member] = &t
}

// room says which budget leaves no room for another iteration of a
// member, ""  when there is room. The calls still to come are that
// iteration, the call each other researching member may have in flight,
// and every member's refinement and ranking; the final cycle has its
// reserve (budgetAhead). The first budget hit stands for every member.
func (cs *councilSpend) room() Limit {
	if cs == nil {
		return ""
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.hit == "" {
		members := len(cs.usage) - 1 // every key but the session's own
		cs.hit = budgetAhead(cs.budget, cs.total(), cs.active+2*members)
	}
	return cs.hit
}

// finished says a member's research loop ended.
func (cs *councilSpend) finished() {
	if cs == nil {
		return
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.active--
}

// limit is the budget that stopped the members' research, or "".
func (cs *councilSpend) limit() Limit {
	if cs == nil {
		return ""
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.hit
}

func (cs *councilSpend) total() Spend { return SpendOf(cs.usage) }

// budgetStopped ends a member's research at the budget.
func (mr *memberRun) budgetStopped(kind Limit) {
	mr.stopped = true
	mr.progress(EventNotice, PhaseMemberResearch, fmt.Sprintf("Phase 1: %s stops after iteration %d of %d: %s reached",
		mr.m.Name, mr.rec.Iteration, mr.c.MemberIterations, mr.spend.budget.describe(kind)))
}

// reopenCouncil takes a council a budget stopped back to its members'
// research when the budget is raised: each member goes on from its branch
// head, the rounds the budget skipped run, and the council merges and
// synthesizes again.
func (r *run) reopenCouncil(lifted bool) {
	if !lifted || !r.state.LimitReached || !r.state.Limit.isBudget() {
		return
	}
	r.state.LimitReached, r.state.Limit, r.state.BudgetStop = false, "", nil
	r.state.IsComplete, r.state.Stage = false, StageCouncil
	r.notice("budget raised: the council's members research on, then the council synthesizes again")
}

// mergedUsage is each member's usage as the last merge took it.
func (c *CouncilState) mergedUsage() map[string]Totals {
	out := map[string]Totals{}
	for _, rec := range c.Results {
		out[rec.Member] = rec.Usage
	}
	return out
}

// iterations says how far each member's research went: "alpha 2 of 10
// iterations, beta 1 of 10".
func (c *CouncilState) iterations() string {
	parts := make([]string, 0, len(c.Results))
	for _, rec := range c.Results {
		parts = append(parts, fmt.Sprintf("%s %d of %d iterations", rec.Member, rec.Iteration, c.MemberIterations))
	}
	return strings.Join(parts, ", ")
}

// subTotals is what a has beyond b.
func subTotals(a, b Totals) Totals {
	return Totals{Calls: a.Calls - b.Calls, InputTokens: a.InputTokens - b.InputTokens, OutputTokens: a.OutputTokens - b.OutputTokens,
		CachedTokens: a.CachedTokens - b.CachedTokens, CostUSD: a.CostUSD - b.CostUSD, Seconds: a.Seconds - b.Seconds}
}

package phases

import (
	"fmt"
	"maps"
	"math"
	"slices"
)

// The spending limits that stop research (--max-cost, --max-tokens).
const (
	LimitCost   Limit = "cost"   // --max-cost
	LimitTokens Limit = "tokens" // --max-tokens
)

// Budget is a session's spending limits and the prices that cost calls
// whose backend reports tokens but no cost. Both limits count the whole
// session, every run of it: money spent before a resume is spent.
type Budget struct {
	MaxCostUSD float64 `json:"max_cost_usd,omitempty"`
	MaxTokens  int64   `json:"max_tokens,omitempty"`
	// Prices are the user's overrides of the backend table's prices
	// (--prices, git config research.prices), recorded so a resume and
	// `rgit verify` cost calls the same way.
	Prices Prices `json:"prices,omitempty"`
}

// Limited says whether the budget sets a spending limit; a budget of
// prices alone (--prices) limits nothing. A nil budget limits nothing.
func (b *Budget) Limited() bool { return b != nil && (b.MaxCostUSD > 0 || b.MaxTokens > 0) }

// Spend is what a session has used: input plus output tokens, US dollars
// and agent calls, summed over its backends.
type Spend struct {
	Calls        int     `json:"calls"`
	InputTokens  int64   `json:"input_tokens"`
	OutputTokens int64   `json:"output_tokens"`
	CostUSD      float64 `json:"cost_usd"`
}

// Tokens is input plus output tokens.
func (s Spend) Tokens() int64 { return s.InputTokens + s.OutputTokens }

// SpendOf sums per-backend totals, in a fixed order (float sums depend on it).
func SpendOf(usage map[string]*Totals) Spend {
	var s Spend
	for _, b := range slices.Sorted(maps.Keys(usage)) {
		t := usage[b]
		s.Calls += t.Calls
		s.InputTokens += t.InputTokens
		s.OutputTokens += t.OutputTokens
		s.CostUSD += t.CostUSD
	}
	return s
}

// BudgetStop is what a session had spent when a budget stopped its
// research; the banner and the summary show it next to the final figures.
type BudgetStop struct {
	Spend
	Limit Limit `json:"limit"`
}

// The final cycle (synthesize, final review, revise) is kept a reserve of
// at least finalCalls mean calls and at least reserveShare of the budget,
// as --time keeps its synthesis reserve.
const (
	finalCalls   = 3
	reserveShare = 0.3
)

// budgetHit says which budget leaves no room for another research call,
// or "" when there is room. It is checked before each dispatch and, as the
// loop dispatches again after every landed call, after each call. It
// projects the spend: what is spent, plus the mean completed call for
// each of inflight calls still running and for the research to start and
// its review, plus the final cycle's reserve. Calls not yet made are
// unknown, so the mean of those made stands in for them.
func budgetHit(b *Budget, spent Spend, inflight int) Limit {
	return budgetAhead(b, spent, inflight+2)
}

// budgetAhead is budgetHit with the calls still to come before the final
// cycle counted by the caller.
func budgetAhead(b *Budget, spent Spend, ahead int) Limit {
	if !b.Limited() {
		return ""
	}
	made := float64(max(spent.Calls, 1))
	over := func(used, limit float64) bool {
		mean := used / made
		reserve := math.Max(finalCalls*mean, reserveShare*limit)
		return used+float64(ahead)*mean+reserve > limit
	}
	if b.MaxCostUSD > 0 && over(spent.CostUSD, b.MaxCostUSD) {
		return LimitCost
	}
	if b.MaxTokens > 0 && over(float64(spent.Tokens()), float64(b.MaxTokens)) {
		return LimitTokens
	}
	return ""
}

// budgetLimit is the session's budget check with calls in flight:
// research calls count twice (they and the review that follows them).
func (r *run) budgetLimit(s *scheduler) Limit {
	inflight := 0
	if s != nil {
		inflight = s.busy() + s.reserved
	}
	return budgetHit(r.state.Budget, SpendOf(r.state.Usage), inflight)
}

// stopAtBudget records what was spent when a budget stopped research.
func (r *run) stopAtBudget(kind Limit) {
	spent := SpendOf(r.state.Usage)
	r.state.BudgetStop = &BudgetStop{Spend: spent, Limit: kind}
	r.warn(fmt.Sprintf("%s reached after %s; synthesizing what there is with the reserve kept for it",
		r.state.Budget.describe(kind), spentOf(kind, spent)))
}

// describe names a budget with its limit: "token budget 20000".
func (b *Budget) describe(kind Limit) string {
	if kind == LimitCost {
		return fmt.Sprintf("cost budget $%.2f", b.MaxCostUSD)
	}
	return fmt.Sprintf("token budget %d", b.MaxTokens)
}

// spentOf is one budget's figure of a spend: "7500 tokens" or "$0.0120".
func spentOf(kind Limit, s Spend) string {
	if kind == LimitCost {
		return fmt.Sprintf("$%.4f", s.CostUSD)
	}
	return fmt.Sprintf("%d tokens", s.Tokens())
}

// budgetFlag is the flag that raises a budget.
func budgetFlag(kind Limit) string {
	if kind == LimitCost {
		return "--max-cost"
	}
	return "--max-tokens"
}

// budgetWarning is the summary's and methodology's line for a session a
// budget stopped, with what research had spent. The methodology is
// written before the final cycle ends, so the session's total is the
// banner's and the summary's to say.
func (r *run) budgetWarning(complete, total int) string {
	kind, stop := r.state.Limit, r.budgetStop()
	done := fmt.Sprintf("%d of %d topics complete", complete, total)
	if r.state.Council != nil {
		done = "members' research " + r.state.Council.iterations()
	}
	return fmt.Sprintf("%s reached (%s spent when research stopped): %s; resume with a higher %s to finish",
		r.state.Budget.describe(kind), spentOf(kind, stop), done, budgetFlag(kind))
}

// budgetStop is what research had spent when the budget stopped it; a
// session recorded without it has the zero spend.
func (r *run) budgetStop() Spend {
	if s := r.state.BudgetStop; s != nil {
		return s.Spend
	}
	return Spend{}
}

// budgetBanner is the banner's reason, next step and figures for a
// session a budget stopped.
func (r *run) budgetBanner() (why, next, figures string) {
	kind, stop := r.state.Limit, r.budgetStop()
	why, next = "reaching the "+budgetFlag(kind)+" budget", "resume with a higher "+budgetFlag(kind)
	what, limit := "Tokens", fmt.Sprint(r.state.Budget.MaxTokens)
	if kind == LimitCost {
		what, limit = "Cost", fmt.Sprintf("$%.2f", r.state.Budget.MaxCostUSD)
	}
	figures = fmt.Sprintf("- %s used: %s in all, %s when research stopped (budget: %s)\n",
		what, spentOf(kind, SpendOf(r.state.Usage)), spentOf(kind, stop), limit)
	return why, next, figures
}

// isBudget says whether a limit is a spending budget.
func (l Limit) isBudget() bool { return l == LimitCost || l == LimitTokens }

// newBudget is a new session's budget; nil when it has none.
func newBudget(cfg Config) *Budget {
	b := &Budget{MaxCostUSD: cfg.MaxCostUSD, MaxTokens: cfg.MaxTokens, Prices: cfg.Prices}
	if !b.Limited() && len(b.Prices) == 0 {
		return nil
	}
	return b
}

// resumeBudget is what a resumed run may change of the budget: a limit
// given again replaces the old one (raising it lets a session a budget
// stopped research on: lifted), and new prices replace the old ones.
func resumeBudget(prior *Budget, cfg Config) (next *Budget, lifted bool) {
	b := Budget{}
	if prior != nil {
		b = *prior
	}
	if cfg.MaxCostUSD > 0 {
		lifted = b.MaxCostUSD > 0 && cfg.MaxCostUSD > b.MaxCostUSD
		b.MaxCostUSD = cfg.MaxCostUSD
	}
	if cfg.MaxTokens > 0 {
		lifted = lifted || (b.MaxTokens > 0 && cfg.MaxTokens > b.MaxTokens)
		b.MaxTokens = cfg.MaxTokens
	}
	if len(cfg.Prices) > 0 {
		b.Prices = cfg.Prices
	}
	if !b.Limited() && len(b.Prices) == 0 {
		return nil, lifted
	}
	return &b, lifted
}

// checkBudget refuses negative budgets (cmd refuses unparsable ones).
func (c *Config) checkBudget() error {
	if c.MaxCostUSD < 0 || math.IsNaN(c.MaxCostUSD) || math.IsInf(c.MaxCostUSD, 0) {
		return badInput("pass --max-cost in US dollars, for example --max-cost 2.50", "invalid --max-cost %g", c.MaxCostUSD)
	}
	if c.MaxTokens < 0 {
		return badInput("pass --max-tokens as a whole number, for example --max-tokens 200000", "invalid --max-tokens %d", c.MaxTokens)
	}
	return nil
}

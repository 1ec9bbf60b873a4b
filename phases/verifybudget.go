package phases

import (
	"fmt"
	"regexp"
	"strconv"
)

// bannerTitle is the title of the banner a limit puts on the report.
func (l Limit) bannerTitle() string {
	switch l {
	case LimitTime:
		return "TIME BUDGET REACHED"
	case LimitTokens:
		return "TOKEN BUDGET REACHED"
	case LimitCost:
		return "COST BUDGET REACHED"
	}
	return "ITERATION LIMIT REACHED"
}

var bannerTitleRE = regexp.MustCompile(`^---\n⚠️ \*\*WARNING: ([A-Z ]+)\*\*`)

// budget checks the spending record against the history: the banner
// names the limit state.json says stopped research, a budget that stopped
// it is one the session had, and the tokens state.json totals are what
// the commits' Rgit-Tokens trailers add up to (a hand-edited state or a
// rewritten history shows here).
func (a *audit) budget(problems *[]string) Check {
	c := Check{Name: "budget", Total: 3, What: "consistent with the trailers (banner's limit, budget, tokens)"}
	fail := func(format string, args ...any) { *problems = append(*problems, fmt.Sprintf(format, args...)) }
	got := ""
	if m := bannerTitleRE.FindSubmatch(a.report); m != nil {
		got = string(m[1])
	}
	want := ""
	if a.state.LimitReached {
		want = a.state.Limit.bannerTitle()
	}
	if got == want {
		c.Passed++
	} else {
		fail("the report's banner says %q but state.json records the limit %q", got, a.state.Limit)
	}
	b := a.state.Budget
	switch {
	case !a.state.LimitReached || !a.state.Limit.isBudget():
		c.Passed++
	case b != nil && (a.state.Limit == LimitTokens && b.MaxTokens > 0 || a.state.Limit == LimitCost && b.MaxCostUSD > 0):
		c.Passed++
	default:
		fail("state.json says the %s budget stopped research, but the session has no such budget", a.state.Limit)
	}
	var sum int64
	for _, r := range a.rows {
		if r.Tokens == "" {
			continue
		}
		n, err := strconv.ParseInt(r.Tokens, 10, 64)
		if err != nil {
			fail("commit %s has a malformed %s trailer %q", r.Hash, TrailerTokens, r.Tokens)
			return c
		}
		sum += n
	}
	if total := SpendOf(a.state.Usage).Tokens(); total == sum {
		c.Passed++
	} else {
		fail("the %s trailers add up to %d tokens but state.json records %d", TrailerTokens, sum, total)
	}
	return c
}

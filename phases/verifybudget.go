package phases

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
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
// rewritten history shows here). A council's tokens are not summed: its
// members' commits are behind the octopus merge.
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
	if a.state.Council != nil {
		// The members' calls are committed on their own branches, behind
		// the octopus merge, not in this first-parent history.
		c.Total--
		return c
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

// members is a council's topics check: every member's research was taken
// by the octopus merge, or the member failed and the report names it.
func (a *audit) members(problems *[]string) Check {
	c := Check{Name: "members", What: "accounted for (merged, or failed and named in the report)"}
	cs := a.state.Council
	for _, m := range cs.Members {
		c.Total++
		merged := slices.ContainsFunc(cs.Results, func(r MemberRecord) bool { return r.Member == m.Name })
		_, failed := cs.Failed[m.Name]
		switch {
		case merged:
			c.Passed++
		case failed && bytes.Contains(a.report, []byte(m.Name)):
			c.Passed++
		default:
			*problems = append(*problems, fmt.Sprintf("council member %q was neither merged nor named in the report as failed", m.Name))
		}
	}
	return c
}

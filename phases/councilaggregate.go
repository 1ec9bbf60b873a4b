package phases

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/rgit-dev/rgit/phases/layout"
)

// Reading the peer review back: the committed rankings and their
// aggregate, the mean rank per member.

// refinedOrReport is the member's refined report, or its report when the
// council had no refinement round.
func refinedOrReport(lay layout.Layout, member string) string {
	if p := lay.MemberFile(member, layout.MemberRefinedFile); fileExists(p) {
		return p
	}
	return lay.MemberFile(member, layout.MemberReportFile)
}

// readRanking reads a member's committed ranking.json; ok is false when it
// has none.
func readRanking(lay layout.Layout, member string) (Ranking, bool) {
	var r Ranking
	data, err := os.ReadFile(lay.MemberFile(member, layout.MemberRankingFile))
	if err != nil || json.Unmarshal(data, &r) != nil {
		return r, false
	}
	return r, true
}

// aggregate is the mean rank of each member over the rankings it got,
// best first (ties by name). Only members in keep count, as rankers and
// as ranked.
func aggregate(rankings []Ranking, keep []string) []AggregateRank {
	sum, n := map[string]int{}, map[string]int{}
	for _, r := range rankings {
		if !slices.Contains(keep, r.Ranker) {
			continue
		}
		for _, e := range r.Ranking {
			if e.Member != r.Ranker && slices.Contains(keep, e.Member) {
				sum[e.Member] += e.Rank
				n[e.Member]++
			}
		}
	}
	var out []AggregateRank
	for m, k := range n {
		out = append(out, AggregateRank{Member: m, MeanRank: float64(sum[m]) / float64(k), Rankings: k})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].MeanRank != out[j].MeanRank {
			return out[i].MeanRank < out[j].MeanRank
		}
		return out[i].Member < out[j].Member
	})
	return out
}

// rankingList renders the aggregate ranking as a markdown list.
func rankingList(agg []AggregateRank) string {
	if len(agg) == 0 {
		return "- No peer ranking: fewer than two members finished their reports."
	}
	var b strings.Builder
	for i, a := range agg {
		fmt.Fprintf(&b, "%d. %s: mean rank %.2f over %d ranking(s)\n", i+1, a.Member, a.MeanRank, a.Rankings)
	}
	return strings.TrimRight(b.String(), "\n")
}

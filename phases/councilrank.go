package phases

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/phases/layout"
)

// The anonymized peer review (the pattern of karpathy/llm-council): each
// member ranks the other members' refined reports, shown only as
// "Report A", "Report B", ... in copies whose paths name no member.

// Ranking is ranking.json, committed on the ranker's branch: who was
// shown as which label, and the ranking it gave, best first.
type Ranking struct {
	Ranker  string            `json:"ranker"`
	Labels  map[string]string `json:"labels"` // label -> member
	Ranking []RankEntry       `json:"ranking"`
}

// RankEntry is one ranked report.
type RankEntry struct {
	Report string `json:"report"` // the label the ranker saw
	Member string `json:"member"` // filled in by rgit from Labels
	Rank   int    `json:"rank"`   // 1 is best
	Reason string `json:"reason"`
}

// AggregateRank is one member's mean rank over the rankings it received.
type AggregateRank struct {
	Member   string  `json:"member"`
	MeanRank float64 `json:"mean_rank"`
	Rankings int     `json:"rankings"`
}

// labelsFor shows the others to ranker in an order of its own (a hash of
// the session and the ranker), so no label means the same member to
// every ranker.
func labelsFor(session, ranker string, others []string) map[string]string {
	order := slices.Clone(others)
	key := func(m string) uint64 {
		h := fnv.New64a()
		fmt.Fprintf(h, "%s\x00%s\x00%s", session, ranker, m)
		return h.Sum64()
	}
	sort.SliceStable(order, func(i, j int) bool { return key(order[i]) < key(order[j]) })
	out := map[string]string{}
	for i, m := range order {
		out[label(i)] = m
	}
	return out
}

func label(i int) string {
	if i < 26 {
		return "Report " + string(rune('A'+i))
	}
	return fmt.Sprintf("Report %d", i+1)
}

// parseRanking reads an agent's ranking (untrusted): one JSON object,
// possibly fenced or surrounded by prose, naming every label exactly once
// with a reason.
func parseRanking(data []byte, labels map[string]string) ([]RankEntry, error) {
	i, j := bytes.IndexByte(data, '{'), bytes.LastIndexByte(data, '}')
	if i < 0 || j < i {
		return nil, fmt.Errorf("ranking is not a JSON object")
	}
	var v struct {
		Ranking []struct {
			Report string `json:"report"`
			Reason string `json:"reason"`
		} `json:"ranking"`
	}
	if err := json.Unmarshal(data[i:j+1], &v); err != nil {
		return nil, fmt.Errorf("parse ranking: %w", err)
	}
	var out []RankEntry
	for _, e := range v.Ranking {
		l := strings.TrimSpace(e.Report)
		m, ok := labels[l]
		switch {
		case !ok:
			return nil, fmt.Errorf("ranking names %q, which is not one of the reports shown (%s)", oneLine(l), strings.Join(sortedKeys(labels), ", "))
		case slices.ContainsFunc(out, func(x RankEntry) bool { return x.Report == l }):
			return nil, fmt.Errorf("ranking names %q twice", l)
		case strings.TrimSpace(e.Reason) == "":
			return nil, fmt.Errorf("ranking gives no reason for %q", l)
		}
		out = append(out, RankEntry{Report: l, Member: m, Rank: len(out) + 1, Reason: oneLineLong(Redact(e.Reason))})
	}
	if len(out) != len(labels) {
		return nil, fmt.Errorf("ranking lists %d of the %d reports; rank every one", len(out), len(labels))
	}
	return out, nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// rank is the member's peer review of the others' refined reports; one
// commit holding ranking.json.
func (mr *memberRun) rank(ctx context.Context, session string, others []string) error {
	if mr.rec.Ranked {
		return nil
	}
	labels := labelsFor(session, mr.m.Name, others)
	scratch := mr.lay.Scratch("rank-" + mr.m.Name)
	if err := os.RemoveAll(scratch); err != nil {
		return fmt.Errorf("clear %s: %w", scratch, err)
	}
	var list strings.Builder
	var reports []agents.MemberReport
	for _, l := range sortedKeys(labels) {
		data, err := os.ReadFile(refinedOrReport(mr.lay, labels[l]))
		if err != nil {
			return fmt.Errorf("read report of %s: %w", labels[l], err)
		}
		p := scratch + string(os.PathSeparator) + strings.ToLower(strings.ReplaceAll(l, " ", "-")) + ".md"
		if err := writeFile(p, data); err != nil {
			return fmt.Errorf("write %s: %w", l, err)
		}
		fmt.Fprintf(&list, "- %s: %s\n", l, p)
		reports = append(reports, agents.MemberReport{Name: l, Path: p})
	}
	defer os.RemoveAll(scratch)
	out := scratch + string(os.PathSeparator) + "ranking.json"
	mr.progress(EventPhaseStart, PhaseRank, fmt.Sprintf("Phase 2: %s peer review starting (%d reports)", mr.m.Name, len(labels)))
	var entries []RankEntry
	c := call{phase: PhaseRank, template: "council_rank.md", role: RoleReview, topic: mr.m.Name, output: out, textIsOutput: true,
		vars:  map[string]string{"labelled_reports": strings.TrimRight(list.String(), "\n"), "report_labels": strings.Join(sortedKeys(labels), ", ")},
		brief: agents.Brief{Question: mr.in.vars["original_topic"], Council: &agents.Council{Member: mr.m.Name, Reports: reports}},
		reset: func() error { return removeIfExists(out) }}
	c.gate = func(agents.Result) error {
		data, err := os.ReadFile(out)
		if err != nil {
			return fmt.Errorf("rank phase gave no ranking")
		}
		entries, err = parseRanking(data, labels)
		return err
	}
	res := mr.calls.run(ctx, c, mr.inputs(nil))
	mr.absorb(res)
	if res.err != nil {
		return res.err
	}
	data, err := json.MarshalIndent(Ranking{Ranker: mr.m.Name, Labels: labels, Ranking: entries}, "", "  ")
	if err != nil {
		return fmt.Errorf("encode ranking: %w", err)
	}
	if err := writeFile(mr.lay.MemberFile(mr.m.Name, layout.MemberRankingFile), append(data, '\n')); err != nil {
		return fmt.Errorf("write ranking: %w", err)
	}
	mr.rec.Ranked = true
	hash, err := mr.commits.write(ctx, &mr.rec, step{phase: PhaseRank, out: res.out,
		summary: fmt.Sprintf("rank: %s ranks %d other reports", mr.m.Name, len(labels))})
	if err != nil {
		return err
	}
	mr.progress(EventPhaseDone, PhaseRank, fmt.Sprintf("Phase 2: %s peer review committed %s", mr.m.Name, orNone(hash)))
	return nil
}

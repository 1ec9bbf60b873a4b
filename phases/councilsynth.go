package phases

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

// councilSections are the eight sections of seed 000's synthesis, as
// title prefixes the gate looks for.
var councilSections = [][]string{{"executive summary"}, {"key findings", "findings"}, {"areas of strong consensus", "areas of consensus"},
	{"areas of disagreement"}, {"novel insights"}, {"remaining open questions", "open questions"},
	{"sources", "comprehensive source list", "source list"}, {"methodology note", "methodology"}}

// councilSynthesize is the council's SYNTHESIZE phase: the synthesizer
// reads the members' refined reports and writes the eight-section report.
// If every agent fails, rgit compiles one from the reports.
func (r *run) councilSynthesize(ctx context.Context) error {
	start := r.clock.Now()
	c := r.state.Council
	out := r.lay.Report()
	var list strings.Builder
	var reports []agents.MemberReport
	for _, m := range c.Members {
		if _, failed := c.Failed[m.Name]; failed {
			continue
		}
		p := refinedOrReport(r.lay, m.Name)
		fmt.Fprintf(&list, "- %s: %s\n", m.Name, p)
		reports = append(reports, agents.MemberReport{Name: m.Name, Path: p})
	}
	vars := map[string]string{"refined_reports": strings.TrimRight(list.String(), "\n"), "aggregate_ranking": rankingList(c.Ranking),
		"failed_members": mdList(failedList(c.Failed))}
	brief := agents.Brief{Question: r.state.OriginalTopic, Council: &agents.Council{Reports: reports, Ranking: rankingList(c.Ranking), Failed: failedList(c.Failed)}}
	call := call{phase: PhaseSynthesize, template: "council_synthesize.md", role: RoleResearch, output: out, vars: vars, brief: brief,
		textIsOutput: true, reset: func() error { return removeIfExists(out) }}
	seen := r.knownSources()
	call.gate = func(agents.Result) error {
		data, err := os.ReadFile(out)
		if err != nil {
			return fmt.Errorf("synthesize phase wrote no report.md")
		}
		return checkReport(seen.document(data).Sections, councilSections)
	}
	call.seen, call.cite = seen, citeGate(out, seen)
	return r.landSynthesis(ctx, r.calls.run(ctx, call, r.inputs(RoleResearch)), synthesis{out: out, start: start, seen: call.seen,
		summary: "synthesize: council report for " + r.state.OriginalTopic, from: "the members' reports",
		compile: func() []byte { return compiledCouncilReport(r.state.OriginalTopic, reports) }})
}

// compiledCouncilReport is rgit's own report when no agent could
// synthesize: the eight sections, with each member's report quoted.
func compiledCouncilReport(topic string, reports []agents.MemberReport) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n## Executive Summary\n\nThis report was compiled by rgit from the council members' reports because no agent could synthesize them.\n\n## Key Findings\n\n", topic)
	for _, rep := range reports {
		data, _ := os.ReadFile(rep.Path)
		body, _ := findSection(sections(data), "key findings", "findings")
		fmt.Fprintf(&b, "### From %s\n\n%s\n\n", rep.Name, strings.TrimSpace(string(body)))
	}
	b.WriteString("## Areas of Strong Consensus\n\nNot assessed: no synthesis.\n\n## Areas of Disagreement or Nuance\n\nNot assessed: no synthesis.\n\n")
	b.WriteString("## Novel Insights\n\nNot assessed: no synthesis.\n\n## Remaining Open Questions\n\nSee each member's report.\n\n## Sources\n\n")
	for _, rep := range reports {
		data, _ := os.ReadFile(rep.Path)
		body, _ := findSection(sections(data), "sources", "references")
		b.WriteString(strings.TrimSpace(string(body)) + "\n")
	}
	return []byte(b.String())
}

// councilMethodology writes rgit's Methodology Note: the members, their
// models, iterations, time, tokens and cost, the aggregate ranking and
// who was left out.
func (r *run) councilMethodology(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read report: %w", err)
	}
	const heading = "## Methodology Note"
	data = dropSection(dropSection(data, heading), methodologyHeading)
	c := r.state.Council
	var b strings.Builder
	b.Write(bytes.TrimRight(data, "\n"))
	fmt.Fprintf(&b, "\n\n%s\n\n", heading)
	fmt.Fprintf(&b, "A council of %d agents researched the question independently (at most %d iterations each), then each refined its report after reading the others', ranked the others' refined reports anonymously, and %s synthesized this report.\n\n",
		len(c.Members), c.MemberIterations, c.Synthesizer)
	b.WriteString("| member | agent | models | iterations | stopped by | time | tokens | cost |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, rec := range c.Results {
		stop := "marker"
		_, failed := c.Failed[rec.Member]
		switch {
		case !rec.Complete && !failed && r.state.Limit.isBudget():
			stop = "budget"
		case !rec.Complete:
			stop = "failed"
		case !rec.Marker:
			stop = "cap"
		}
		u := usageOf(rec.Usage)
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %s | %s | %d | $%.4f |\n", rec.Member, rec.Spec, strings.Join(rec.Models, ", "),
			rec.Iteration, stop, u.Duration.Round(time.Millisecond), u.Tokens(), u.CostUSD)
	}
	fmt.Fprintf(&b, "\nAggregate peer ranking (mean rank, 1 is best; no member ranks its own report):\n\n%s\n", rankingList(c.Ranking))
	if len(c.Failed) > 0 {
		fmt.Fprintf(&b, "\nFailed members, left out of refinement and synthesis:\n\n%s\n", mdList(failedList(c.Failed)))
	}
	fmt.Fprintf(&b, "\nHistory: every iteration, refinement and ranking is a commit on its member's branch (`%s.<member>`); `%s` records their octopus merge.\n",
		r.lay.Branch(), r.lay.Branch())
	return writeFile(path, []byte(b.String()))
}

package mock

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/rgit-dev/rgit/agents"
)

// The council's phases. Each member draws its findings from a pool
// shared by every member of the question, so members agree on some
// findings and differ on others, and the synthesis has both to report.

// completeMarker ends a member's report when it considers itself done.
const completeMarker = "<!-- RESEARCH_COMPLETE -->"

// MemberRounds is how many research iterations a mock member needs before
// it marks its report complete: 2 or 3, a function of the question and
// the member's name alone.
func MemberRounds(question, member string) int {
	return 2 + seedFor(question, member, "rounds").intn(2)
}

// memberResearch writes iteration Council.Iteration of a member's report:
// two more findings per iteration, each citing its source, and the
// completion marker once MemberRounds is reached.
func memberResearch(b agents.Brief) output {
	c := b.Council
	lower := strings.ToLower(b.Question)
	r := seedFor(b.Question, c.Member, "member")
	picks := r.perm(len(claims))
	var findings, sources []string
	var fetched []agents.Source // it "read" every page it cites, as research does
	for i := 0; i < min(2*c.Iteration, len(picks)); i++ {
		claim := fmt.Sprintf("Sources on %s %s", lower, fmt.Sprintf(claims[picks[i]], 5+picks[i]))
		findings = append(findings, fmt.Sprintf("%s (Source %d).", claim, i+1))
		sources = append(sources, source(seedFor(b.Question, "", fmt.Sprint("source", picks[i])), b.Question, i+1))
		fetched = append(fetched, page(sources[i], claim))
	}
	var w strings.Builder
	fmt.Fprintf(&w, "# %s\n\n## Executive Summary\n\nAfter %d research iterations, %s found %d findings on %s.\n",
		b.Question, c.Iteration, c.Member, len(findings), lower)
	w.WriteString("\n## Key Findings\n\n")
	for _, f := range findings {
		fmt.Fprintf(&w, "- %s\n", f)
	}
	fmt.Fprintf(&w, "\n## Methodology\n\nBreadth first, then depth, over %d iterations; every claim is checked against a second source.\n", c.Iteration)
	fmt.Fprintf(&w, "\n## Open Questions\n\n- %s.\n", fmt.Sprintf(knowledgeGaps[r.intn(len(knowledgeGaps))], lower))
	w.WriteString("\n## Sources\n\n")
	for _, s := range sources {
		fmt.Fprintf(&w, "- %s\n", s)
	}
	done := c.Iteration >= MemberRounds(b.Question, c.Member)
	if done {
		w.WriteString("\n" + completeMarker + "\n")
	}
	return output{body: w.String(), sources: fetched,
		text: fmt.Sprintf("%s: iteration %d, %d findings, complete %v.", c.Member, c.Iteration, len(findings), done)}
}

// refineReport rewrites a member's report after reading the others: its
// own findings, then the others' findings it did not have as new avenues,
// under "## Cross-Pollination".
func refineReport(b agents.Brief) (output, error) {
	c := b.Council
	own, err := os.ReadFile(c.Report)
	if err != nil {
		return output{}, fmt.Errorf("read own report: %w", err)
	}
	read := len(own)
	var mine, added []string
	for _, f := range bullets(string(own), "## Key Findings") {
		mine = append(mine, stripCite(f))
	}
	for _, o := range c.Reports {
		data, err := os.ReadFile(o.Path)
		if err != nil {
			return output{}, fmt.Errorf("read %s's report: %w", o.Name, err)
		}
		read += len(data)
		for _, f := range bullets(string(data), "## Key Findings") {
			if f = stripCite(f); !slices.Contains(mine, f) && !slices.Contains(added, f) {
				added = append(added, f)
			}
		}
	}
	text := strings.TrimSuffix(strings.TrimRight(string(own), "\n"), completeMarker)
	text = strings.TrimRight(text, "\n") + "\n\n## Cross-Pollination\n\n"
	if len(added) == 0 {
		text += "- The other reports raised no avenue this report lacked.\n"
	}
	for _, f := range added {
		text += fmt.Sprintf("- New avenue, followed up independently: %s\n", f)
	}
	text += "\n" + completeMarker + "\n"
	return output{body: text, read: read, text: fmt.Sprintf("%s refined its report: %d new avenues.", c.Member, len(added))}, nil
}

// rankReports ranks the labelled reports, best first, by how many
// findings they hold (ties by label), with a reason for each.
func rankReports(b agents.Brief) (output, error) {
	type entry struct {
		Report string `json:"report"`
		Reason string `json:"reason"`
		n      int
	}
	var es []entry
	read := 0
	for _, o := range b.Council.Reports {
		data, err := os.ReadFile(o.Path)
		if err != nil {
			return output{}, fmt.Errorf("read %s: %w", o.Name, err)
		}
		read += len(data)
		n := len(bullets(string(data), "## Key Findings")) + len(bullets(string(data), "## Cross-Pollination"))
		es = append(es, entry{Report: o.Name, n: n,
			Reason: fmt.Sprintf("%d cited findings; accuracy and evidence checked against its sources", n)})
	}
	slices.SortStableFunc(es, func(x, y entry) int { return y.n - x.n })
	data, err := json.Marshal(map[string]any{"ranking": es})
	if err != nil {
		return output{}, fmt.Errorf("encode ranking: %w", err)
	}
	return output{body: string(data) + "\n", text: string(data), read: read}, nil
}

// bullets returns the "- " items of the section under heading.
func bullets(text, heading string) []string {
	i := strings.Index(text, "\n"+heading+"\n")
	if i < 0 {
		return nil
	}
	body := text[i+len(heading)+2:]
	if j := strings.Index(body, "\n## "); j >= 0 {
		body = body[:j]
	}
	var out []string
	for line := range strings.Lines(body) {
		if item, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok {
			out = append(out, item)
		}
	}
	return out
}

// stripCite drops a finding's "(Source n)" citation, whose number differs
// between members' reports.
func stripCite(f string) string {
	f = cites.ReplaceAllString(strings.TrimPrefix(f, "New avenue, followed up independently: "), "")
	return strings.ReplaceAll(strings.TrimSpace(f), " .", ".")
}

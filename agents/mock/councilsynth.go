package mock

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/rgit-dev/rgit/agents"
)

// councilSynthesis writes the council report's eight sections from the
// refined reports: findings that two or more members share are consensus,
// the rest are differences, and the cross-pollination items are novel.
func councilSynthesis(b agents.Brief) (output, error) {
	c := b.Council
	count := map[string]int{}
	var order, novel, open, sources []string
	read := 0
	for _, rep := range c.Reports {
		data, err := os.ReadFile(rep.Path)
		if err != nil {
			return output{}, fmt.Errorf("read %s's report: %w", rep.Name, err)
		}
		read += len(data)
		text := string(data)
		for _, f := range bullets(text, "## Key Findings") {
			f = stripCite(f)
			if count[f] == 0 {
				order = append(order, f)
			}
			count[f]++
		}
		for _, list := range []struct {
			heading string
			to      *[]string
		}{{"## Cross-Pollination", &novel}, {"## Open Questions", &open}, {"## Sources", &sources}} {
			for _, x := range bullets(text, list.heading) {
				if list.heading == "## Sources" {
					_, x, _ = strings.Cut(x, ": ")
				}
				if !slices.Contains(*list.to, x) {
					*list.to = append(*list.to, x)
				}
			}
		}
	}
	var w strings.Builder
	fmt.Fprintf(&w, "# %s\n\n## Executive Summary\n\n%d council members researched the question independently, read each other's reports and refined their own; %d findings resulted, %d of them shared.\n",
		b.Question, len(c.Reports), len(order), countShared(count))
	w.WriteString("\n## Key Findings\n\n### Evidence and outcomes\n\n")
	for _, f := range order {
		fmt.Fprintf(&w, "- %s\n", f)
	}
	w.WriteString("\n## Areas of Strong Consensus\n\n")
	writeFiltered(&w, order, func(f string) bool { return count[f] > 1 }, "No finding was reported by more than one member.")
	w.WriteString("\n## Areas of Disagreement or Nuance\n\n")
	writeFiltered(&w, order, func(f string) bool { return count[f] == 1 }, "The members did not differ.")
	w.WriteString("\n## Novel Insights\n\n")
	writeFiltered(&w, novel, func(string) bool { return true }, "The cross-pollination round raised no new avenue.")
	w.WriteString("\n## Remaining Open Questions\n\n")
	writeFiltered(&w, open, func(string) bool { return true }, "None recorded.")
	w.WriteString("\n## Sources\n\n")
	for i, s := range sources {
		fmt.Fprintf(&w, "%d. %s\n", i+1, s)
	}
	fmt.Fprintf(&w, "\n## Methodology Note\n\nSynthesized from %d refined member reports.\n", len(c.Reports))
	return output{body: w.String(), read: read, text: "Wrote the council report."}, nil
}

func countShared(count map[string]int) int {
	n := 0
	for _, c := range count {
		if c > 1 {
			n++
		}
	}
	return n
}

func writeFiltered(w *strings.Builder, items []string, keep func(string) bool, none string) {
	n := 0
	for _, it := range items {
		if keep(it) {
			fmt.Fprintf(w, "- %s\n", it)
			n++
		}
	}
	if n == 0 {
		fmt.Fprintf(w, "%s\n", none)
	}
}

package local

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/rgit-dev/rgit/agents"
)

// The council's phases (seed 000) for the offline researcher. It is
// deterministic, so one research pass is all it can give: its report is
// complete at once. Its refinement names the passages the other members
// quoted and it did not; its ranking counts each report's quotations that
// still match the corpus; its synthesis sorts the members' quotations
// into the ones two or more members share and the ones only one has.

// researchComplete ends a member report with nothing left to research.
const researchComplete = "<!-- RESEARCH_COMPLETE -->"

// council runs one of the council's phases.
func (r *run) council() (string, error) {
	switch r.task.Phase {
	case agents.PhaseMemberResearch, agents.PhaseRefine:
		return r.memberReport()
	case agents.PhaseRank:
		return r.rank()
	}
	return r.councilSynthesis()
}

// memberReport is a member's report: the research of the whole question
// in the five sections of a member report, and for a refinement the other
// members' passages this one lacks.
func (r *run) memberReport() (string, error) {
	if r.b.Topic == "" {
		r.b.Topic = r.b.Question
	}
	r.b.CanSubdivide = false
	prog, err := r.research()
	if err != nil {
		return "", err
	}
	fs := r.findingsOf(prog)
	var sb strings.Builder
	fmt.Fprintf(&sb, "# %s\n\n## Executive Summary\n\n%d verbatim quotations from %d files of the corpus bear on the question; "+
		"each finding below is a quotation with its citation.\n\n## Key Findings\n\n", oneLine(r.b.Question), len(fs), distinctFiles(fs))
	for _, f := range fs {
		writeQuote(&sb, "", "- ", f)
	}
	sb.WriteString("\n## Methodology\n\nrgit's offline researcher ranked passages of the corpus by BM25 for the question and " +
		"quoted the best lines verbatim, in one pass (it is deterministic: another pass finds the same).\n")
	sb.WriteString("\n## Open Questions\n\n")
	gaps := section(prog, "## Knowledge Gaps")
	if gaps == "" {
		gaps = "None the corpus leaves open."
	}
	sb.WriteString(gaps + "\n")
	sb.WriteString("\n## Sources\n\n" + section(prog, "## Sources") + "\n")
	if r.task.Phase == agents.PhaseRefine && r.b.Council != nil {
		sb.WriteString("\n## Cross-Pollination\n\n")
		sb.WriteString(r.othersPassages(fs) + "\n")
	}
	sb.WriteString("\n" + researchComplete + "\n")
	return sb.String(), nil
}

// othersPassages lists the passages the other members quoted that fs
// does not hold, as leads to follow up.
func (r *run) othersPassages(fs []finding) string {
	var lines []string
	for _, o := range r.b.Council.Reports {
		data, err := os.ReadFile(o.Path)
		if err != nil {
			continue
		}
		for _, f := range r.findingsOf(string(data)) {
			if !overlaps(fs, f) {
				lines = append(lines, fmt.Sprintf("- %s quoted lines %d-%d of %s, which this report does not.", o.Name, f.Start, f.End, f.Path))
			}
		}
	}
	if len(lines) == 0 {
		return "The other reports quote no passage this report lacks."
	}
	return strings.Join(lines, "\n")
}

// rank ranks the labelled reports by their quotations that still match
// the corpus, most first (ties in label order).
func (r *run) rank() (string, error) {
	type entry struct {
		Report string `json:"report"`
		Reason string `json:"reason"`
		n      int
	}
	var es []entry
	for _, o := range r.b.Council.Reports {
		data, err := os.ReadFile(o.Path)
		if err != nil {
			return "", fmt.Errorf("read %s: %w", o.Name, err)
		}
		n, all := len(r.findingsOf(string(data))), len(parseCitations(string(data)))
		es = append(es, entry{Report: o.Name, n: n, Reason: fmt.Sprintf("%d of its %d citations quote the corpus verbatim", n, all)})
	}
	slices.SortStableFunc(es, func(x, y entry) int { return y.n - x.n })
	data, err := json.Marshal(map[string]any{"ranking": es})
	if err != nil {
		return "", fmt.Errorf("encode ranking: %w", err)
	}
	return string(data) + "\n", nil
}

// councilSynthesis writes the council report's eight sections from the
// members' refined reports.
func (r *run) councilSynthesis() (string, error) {
	type shared struct {
		f  finding
		by []string
	}
	var all []shared
	var open, novel []string
	for _, o := range r.b.Council.Reports {
		data, err := os.ReadFile(o.Path)
		if err != nil {
			return "", fmt.Errorf("read %s's report: %w", o.Name, err)
		}
		for _, f := range r.findingsOf(string(data)) {
			i := slices.IndexFunc(all, func(s shared) bool { return overlaps([]finding{s.f}, f) })
			if i < 0 {
				all = append(all, shared{f: f})
				i = len(all) - 1
			}
			if !slices.Contains(all[i].by, o.Name) {
				all[i].by = append(all[i].by, o.Name)
			}
		}
		open = appendNew(open, bulletsOf(section(string(data), "## Open Questions")))
		novel = appendNew(novel, bulletsOf(section(string(data), "## Cross-Pollination")))
	}
	src := &sources{num: map[string]int{}}
	var sb strings.Builder
	nShared := 0
	for _, s := range all {
		if len(s.by) > 1 {
			nShared++
		}
	}
	fmt.Fprintf(&sb, "# %s\n\n## Executive Summary\n\n%d council members answered from the corpus with %d distinct quotations, "+
		"%d of them quoted by more than one member.\n\n## Key Findings\n\n", oneLine(r.b.Question), len(r.b.Council.Reports), len(all), nShared)
	for _, s := range all {
		writeQuote(&sb, "", fmt.Sprintf("- [%d] ", src.add(s.f)), s.f)
	}
	list := func(title string, keep func(shared) bool, none string) {
		fmt.Fprintf(&sb, "\n## %s\n\n", title)
		n := 0
		for _, s := range all {
			if keep(s) {
				fmt.Fprintf(&sb, "- Lines %d-%d of %s (%s): quoted by %s.\n", s.f.Start, s.f.End, s.f.Path, oneLine(s.f.Label), strings.Join(s.by, ", "))
				n++
			}
		}
		if n == 0 {
			sb.WriteString(none + "\n")
		}
	}
	list("Areas of Strong Consensus", func(s shared) bool { return len(s.by) > 1 }, "No passage was quoted by more than one member.")
	list("Areas of Disagreement or Nuance", func(s shared) bool { return len(s.by) == 1 }, "Every passage was quoted by several members.")
	sb.WriteString("\n## Novel Insights\n\n" + orNone(novel, "The cross-pollination round raised no new passage.") + "\n")
	sb.WriteString("\n## Remaining Open Questions\n\n" + orNone(open, "None recorded.") + "\n")
	sb.WriteString("\n## Sources\n\n" + r.rootsNote() + "\n\n")
	for i, p := range src.order {
		fmt.Fprintf(&sb, "%d. `%s` (lines %s)\n", i+1, p, strings.Join(src.ranges[p], ", "))
	}
	fmt.Fprintf(&sb, "\n## Methodology Note\n\nSynthesized offline from %d refined member reports: a quotation is consensus when "+
		"two or more members quoted overlapping lines of the same file.\n", len(r.b.Council.Reports))
	return sb.String(), nil
}

// section is the body of the "## " section titled heading in text, trimmed.
func section(text, heading string) string {
	_, rest, ok := strings.Cut(text, "\n"+heading+"\n")
	if !ok {
		return ""
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return strings.TrimSpace(strings.ReplaceAll(rest, researchComplete, ""))
}

func bulletsOf(body string) []string {
	var out []string
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, "- ") {
			out = append(out, l)
		}
	}
	return out
}

func appendNew(to, xs []string) []string {
	for _, x := range xs {
		if !slices.Contains(to, x) {
			to = append(to, x)
		}
	}
	return to
}

func orNone(xs []string, none string) string {
	if len(xs) == 0 {
		return none
	}
	return strings.Join(xs, "\n")
}

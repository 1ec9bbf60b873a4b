package modelserver

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/rgit-dev/rgit/agents"
)

// Council phases (seed 000): a member's report, complete at once; a
// ranking of the labels the prompt shows; the eight-section synthesis.

// reLabels is the rank prompt's "The labels are: Report A, Report B."
var reLabels = regexp.MustCompile(`(?m)The labels are: (.*?)\.\s*Do not`)

func memberReportContent(q string, phase agents.Phase) string {
	what := "research"
	if phase == agents.PhaseRefine {
		what = "refined research, after reading the other members' reports,"
	}
	return fmt.Sprintf("# %s\n\n## Executive Summary\nThe scripted model's %s on %s [1].\n\n## Key Findings\n- %s is described by the scripted test source. (Source 1)\n\n"+
		"## Methodology\nOne scripted pass.\n\n## Open Questions\n- None the script can settle.\n\n## Sources\n- Source 1: Scripted model server, rgit test fixture, 2026 (no web page)\n\n<!-- RESEARCH_COMPLETE -->\n",
		q, what, q, topicName(q))
}

func rankingContent(prompt string) string {
	type entry struct {
		Report string `json:"report"`
		Reason string `json:"reason"`
	}
	var es []entry
	if m := reLabels.FindStringSubmatch(prompt); m != nil {
		for _, l := range strings.Split(m[1], ",") {
			es = append(es, entry{Report: strings.TrimSpace(l), Reason: "scripted: accurate, deep enough, cited"})
		}
	}
	data, _ := json.Marshal(map[string]any{"ranking": es})
	return string(data) + "\n"
}

func councilReportContent(q string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Report: %s\n\n", q)
	for _, s := range []string{"Executive Summary", "Key Findings", "Areas of Strong Consensus", "Areas of Disagreement or Nuance",
		"Novel Insights", "Remaining Open Questions"} {
		fmt.Fprintf(&b, "## %s\nScripted %s on %s [1].\n\n", s, strings.ToLower(s), q)
	}
	b.WriteString("## Sources\n1. Scripted model server, rgit test fixture, 2026 (no web page)\n\n## Methodology Note\nScripted.\n")
	return b.String()
}

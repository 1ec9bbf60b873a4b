package mock

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
)

// TestSynthesizeEdgeCases checks exhausted topics, topics without a
// progress file, orphans and sources shared between topics.
func TestSynthesizeEdgeCases(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	shared := "Source 1: Shared study (Press, 2020) - https://www.example.com/s"
	a := write("a.md", "# Progress: A\n\n## Findings\n- A holds (Source 1).\n\n## Sources\n- "+shared+"\n")
	b := write("b.md", "# Progress: B\n\n## Findings\n- B holds (Source 1, Source 2).\n\n## Sources\n- "+shared+
		"\n- Source 2: Other (Press, 2021) - https://www.example.com/o\n\n## Knowledge Gaps\n- Gap 1: Nobody knows C.\n")
	out := synthesize(agents.Brief{Question: "Q?", Breadth: 2, Depth: 1, Topics: []agents.TopicRef{
		{Name: "A", Progress: a},
		{Name: "B", Parent: "A", Depth: 1, Progress: b},
		{Name: "Lost", Depth: 0, Exhausted: true},
		{Name: "Orphan", Parent: "Gone", Depth: 1},
	}}).body
	for _, want := range []string{
		"### A\n\n- A holds [1].\n",
		"#### B\n\n- B holds [1], [2].\n\nOpen questions: Nobody knows C.\n",
		"### Lost\n\n- This topic was abandoned after repeated failures (#RETRY_EXHAUSTED)",
		"Topics abandoned after repeated failures (#RETRY_EXHAUSTED):\n\n- Lost\n",
		"### Orphan\n\n- No findings were recorded for this topic.\n",
		"## Sources\n\n1. Shared study (Press, 2020) - https://www.example.com/s\n2. Other (Press, 2021) - https://www.example.com/o\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

// TestRevise checks each gap lands in the section it names, or in the
// Executive Summary, and that nothing else changes.
func TestRevise(t *testing.T) {
	report := "# R\n\n## Executive Summary\n\nSummary.\n\n## Methodology\n\nMethod.\n\n## Findings\n\n### A\n\n- x [1].\n\n## Sources\n\n1. S\n"
	tests := []struct {
		name string
		gaps []string
		want []string
	}{
		{"none", nil, []string{report}},
		{"named section", []string{reportGaps[1]},
			[]string{"Method.\n\n" + reportFixes[reportGaps[1]] + "\n\n## Findings"}},
		{"unknown gap", []string{"Tighten the prose."},
			[]string{"Summary.\n\nA limitation raised in review remains open, as the research does not settle it: Tighten the prose.\n\n## Methodology"}},
		{"last section", []string{"Sources: add access dates"},
			[]string{"1. S\n\nA limitation raised in review remains open, as the research does not settle it: Sources: add access dates.\n"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "report.md")
			if err := os.WriteFile(path, []byte(report), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := revise(path, agents.Brief{Gaps: tc.gaps})
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.want {
				if !strings.Contains(out.body, want) {
					t.Errorf("revised report lacks %q:\n%s", want, out.body)
				}
			}
			for _, h := range []string{"## Executive Summary", "## Methodology", "## Findings", "## Sources"} {
				if strings.Count(out.body, "\n"+h+"\n") != 1 {
					t.Errorf("section %q not kept exactly once", h)
				}
			}
		})
	}
}

package modelserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/phases/plan"
	"github.com/rgit-dev/rgit/prompts"
)

// TestRecogniseRealTemplates renders rgit's default prompts the way the
// loop does and checks the server finds the right file and phase, and that
// the plan it writes passes rgit's own plan parser and validator.
func TestRecogniseRealTemplates(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, ".research", "kites")
	planFile := filepath.Join(ws, "research_plan.md")
	report := filepath.Join(root, "reports", "kites", "report.md")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(planFile, []byte("### Kite Physics (Depth: 0)\n\n### Kite Lines (Depth: 1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{
		"original_topic": "How do kites fly?", "session_name": "kites", "breadth": "2", "depth": "1",
		"workspace": ws, "plan_file": planFile, "report_file": report, "topic": "Kite Physics",
		"topic_slug": "kite-physics", "topic_depth": "0", "subtopic_limit": "2", "timeout": "600",
		"progress_files": "- Kite Physics: " + filepath.Join(ws, "progress/kite-physics.md") +
			"\n- Kite Lines: " + filepath.Join(ws, "progress/kite-lines.md"),
		"acceptance_criteria": "- Explains lift", "attempt": "1", "failed_phase": "research", "error": "no file written",
		"member": "claude", "member_iteration": "2", "member_iterations": "10", "member_report": filepath.Join(ws, "members/claude/report.md"),
		"other_reports":    "- codex: " + filepath.Join(ws, "members/codex/report.md"),
		"labelled_reports": "- Report A: " + filepath.Join(ws, ".scratch/rank-claude/report-a.md") + "\n- Report B: " + filepath.Join(ws, ".scratch/rank-claude/report-b.md"),
		"report_labels":    "Report A, Report B",
		"refined_reports":  "- claude: " + filepath.Join(ws, "members/claude/refined.md"),
	}
	cases := []struct {
		templates []string
		output    string
		phase     agents.Phase
		want      []string // in the content written
	}{
		{[]string{"initial_plan.md"}, planFile, agents.PhasePlan, []string{"- Topic: How do kites fly?", "- Breadth: 2"}},
		{[]string{"research.md"}, filepath.Join(ws, "progress/kite-physics.md"), agents.PhaseResearch, []string{"# Progress: Kite Physics", "## Subtopics\nNo subtopics proposed."}},
		{[]string{"recovery.md", "research.md", "phase_recovery.md"}, filepath.Join(ws, "progress/kite-physics.md"), agents.PhaseResearch, []string{"## Findings"}},
		{[]string{"review.md"}, filepath.Join(ws, "review.json"), agents.PhaseReview, []string{`"verdict":"accept"`}},
		{[]string{"synthesize.md"}, report, agents.PhaseSynthesize, []string{"### Kite Physics\n", "#### Kite Lines\n", "## Sources\n1. "}},
		{[]string{"final_review.md"}, filepath.Join(ws, "review.json"), agents.PhaseFinalReview, []string{`"verdict":"accept"`}},
		{[]string{"revise.md"}, report, agents.PhaseRevise, []string{"## Executive Summary"}},
		// The council's (seed 000).
		{[]string{"council_research.md"}, filepath.Join(ws, "members/claude/report.md"), agents.PhaseMemberResearch, []string{"## Key Findings\n", "## Sources\n", "<!-- RESEARCH_COMPLETE -->"}},
		{[]string{"council_refine.md"}, filepath.Join(ws, "members/claude/refined.md"), agents.PhaseRefine, []string{"## Key Findings\n", "after reading the other members"}},
		{[]string{"council_rank.md"}, filepath.Join(ws, ".scratch/rank-claude/ranking.json"), agents.PhaseRank, []string{`{"ranking":[{"report":"Report A","reason":`, `{"report":"Report B"`}},
		{[]string{"council_synthesize.md"}, report, agents.PhaseSynthesize, []string{"## Areas of Strong Consensus\n", "## Novel Insights\n", "## Methodology Note\n"}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.templates, "+"), func(t *testing.T) {
			vars := maps(vars, "output_file", tc.output)
			var parts []string
			for _, name := range tc.templates {
				text, err := prompts.Default().Render(name, vars)
				if err != nil {
					t.Fatalf("render %s: %v", name, err)
				}
				parts = append(parts, text)
			}
			job := Recognise(strings.Join(parts, "\n"))
			if job.Output != tc.output || job.Phase != tc.phase {
				t.Fatalf("Recognise = %q %q, want %q %q", job.Phase, job.Output, tc.phase, tc.output)
			}
			content := Content(job)
			for _, w := range tc.want {
				if !strings.Contains(content, w) {
					t.Errorf("content lacks %q:\n%s", w, content)
				}
			}
			if tc.phase == agents.PhasePlan {
				p, err := plan.Parse(tc.output, []byte(content))
				if err == nil {
					err = p.Validate(tc.output)
				}
				if err != nil {
					t.Errorf("rgit rejects the scripted plan: %v\n%s", err, content)
				}
			}
		})
	}
}

func maps(m map[string]string, k, v string) map[string]string {
	out := map[string]string{k: v}
	for key, val := range m {
		out[key] = val
	}
	return out
}

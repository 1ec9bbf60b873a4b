package prompts

import (
	"slices"
	"strings"
	"testing"
)

// TestDefaultsValidate checks that every embedded template passes
// Validate and that Default holds exactly Names.
func TestDefaultsValidate(t *testing.T) {
	for _, name := range Names {
		src := DefaultSource(name)
		if len(src) == 0 {
			t.Errorf("%s: no embedded default", name)
			continue
		}
		if err := Validate(name, src); err != nil {
			t.Errorf("default %s: %v", name, err)
		}
	}
	entries, err := defaultFS.ReadDir("defaults")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(Names) {
		t.Errorf("defaults/ holds %d files, Names lists %d", len(entries), len(Names))
	}
}

// TestDefaultsCarryContract checks each default names what its phase
// needs: the output file, the formats of agents.go's contract, and the
// ownership rules a real CLI agent must follow.
func TestDefaultsCarryContract(t *testing.T) {
	tests := []struct {
		name    string
		vars    []string // must be referenced
		phrases []string // must appear in the rendered text
		absent  []string // must not be referenced
	}{
		{"initial_plan.md", []string{"original_topic", "breadth", "depth", "output_file"},
			[]string{"# Research Plan", "## Metadata", "## Topics", "(Depth: 0)", "- Status: Pending", "- Description:", "- Acceptance Criteria:", "## Completion Status", "do not run git"},
			[]string{"progress_files", "review_gaps"}},
		{"research.md", []string{"topic", "ancestors", "acceptance_criteria", "review_gaps", "output_file", "subtopic_limit", "workspace", "plan_file"},
			[]string{"# Progress:", "## Findings", "## Sources", "## Knowledge Gaps", "## Subtopics", "- <Subtopic Name>: ", "  - <acceptance criterion>", "Never invent a source", "No subtopics proposed.", "rgit, not you, edits"},
			[]string{"progress_files", "report_file"}},
		{"review.md", []string{"topic", "topic_slug", "acceptance_criteria", "review_gaps", "output_file"},
			[]string{`{"verdict": "accept", "summary":`, `"gaps": []`, `"accept" or "reject"`, "Do not edit the progress file"},
			[]string{"progress_files"}},
		{"synthesize.md", []string{"progress_files", "exhausted_topics", "output_file"},
			[]string{"## Executive Summary", "## Methodology", "## Findings", "## Sources", "[n]", "#RETRY_EXHAUSTED"},
			[]string{"ancestors", "review_gaps"}},
		{"final_review.md", []string{"report_file", "progress_files", "output_file"},
			[]string{`{"verdict": "accept", "summary":`, "Completeness", "Coherence", "Evidence", "Tone"},
			nil},
		{"revise.md", []string{"review_gaps", "output_file"},
			[]string{"Do no new research", "in place"},
			nil},
		{"recovery.md", []string{"failed_phase", "error", "recovery_notes", "output_file", "attempt"},
			[]string{"carry it out again", "write it\nagain, complete"},
			[]string{"progress_files", "acceptance_criteria"}},
		{"phase_recovery.md", []string{"attempt", "failed_phase", "output_file"},
			[]string{"Do not mention this retry"},
			[]string{"error", "recovery_notes"}},
		{"council_research.md", []string{"member", "member_iteration", "member_iterations", "current_report", "output_file"},
			[]string{"<!-- RESEARCH_COMPLETE -->", "## Open Questions"},
			[]string{"other_reports", "labelled_reports"}},
		{"council_refine.md", []string{"member_report", "other_reports", "output_file"},
			[]string{"SPRINGBOARDS", "strictly better"},
			[]string{"labelled_reports", "aggregate_ranking"}},
		{"council_rank.md", []string{"labelled_reports", "report_labels"},
			[]string{"Accuracy", "Depth", "Evidence", `"ranking"`},
			[]string{"member", "other_reports", "refined_reports"}},
		{"council_synthesize.md", []string{"refined_reports", "aggregate_ranking", "failed_members", "output_file"},
			[]string{"## Areas of Strong Consensus", "## Novel Insights", "## Methodology Note"},
			[]string{"labelled_reports"}},
	}
	if len(tests) != len(Names) {
		t.Fatalf("test covers %d templates, Names has %d", len(tests), len(Names))
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			uses := Default().Uses(tc.name)
			for _, v := range tc.vars {
				if !slices.Contains(uses, v) {
					t.Errorf("does not use $%s (uses %v)", v, uses)
				}
			}
			for _, v := range tc.absent {
				if slices.Contains(uses, v) {
					t.Errorf("uses $%s, which this phase should not carry", v)
				}
			}
			out, err := Default().Render(tc.name, map[string]string{"output_file": "/ws/OUT"})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range tc.phrases {
				if !strings.Contains(out, p) {
					t.Errorf("rendered text lacks %q", p)
				}
			}
			if !strings.Contains(out, "/ws/OUT") {
				t.Errorf("rendered text does not name the output file")
			}
		})
	}
}

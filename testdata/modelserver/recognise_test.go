package modelserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
)

func TestRecognise(t *testing.T) {
	cases := []struct {
		name, prompt string
		phase        agents.Phase
		output       string
		topic        string
	}{
		{"plan", "Plan the research.\nThe plan lives in /w/.research/s/research_plan.md\nWrite your output to: /w/.research/s/research_plan.md\n",
			agents.PhasePlan, "/w/.research/s/research_plan.md", ""},
		{"research prefers the output line over earlier paths",
			"Read the plan at /w/.research/s/research_plan.md first.\nTopic: Solar sails\nOutput file: `/w/.research/s/progress/solar-sails.md`.\n",
			agents.PhaseResearch, "/w/.research/s/progress/solar-sails.md", "Solar sails"},
		{"research in a --jobs scratch directory",
			"Topic: Solar sails\nOutput file: `/w/.research/s/.scratch/research-solar-sails/solar-sails.md`.\n",
			agents.PhaseResearch, "/w/.research/s/.scratch/research-solar-sails/solar-sails.md", "Solar sails"},
		{"review", "Review /w/.research/s/progress/x.md.\n- **Topic**: X rays\nSave the verdict to /w/.research/s/review.json\n",
			agents.PhaseReview, "/w/.research/s/review.json", "X rays"},
		{"final review", "Final review of the report /w/reports/s/report.md.\nWrite your verdict to /w/.research/s/review.json\n",
			agents.PhaseFinalReview, "/w/.research/s/review.json", ""},
		{"synthesize", "Synthesize the findings.\nWrite the report to /w/reports/s/report.md.\n",
			agents.PhaseSynthesize, "/w/reports/s/report.md", ""},
		{"revise", "Revise the report to answer the gaps.\nEdit /w/reports/s/report.md in place.\n",
			agents.PhaseRevise, "/w/reports/s/report.md", ""},
		{"only a path, no output words", "Look at /w/notes/a.md and /w/notes/b.md\n",
			agents.PhaseRefine, "/w/notes/b.md", ""},
		{"path with spaces alone after a colon", "Read /w/x.md.\nWrite the report to this file:\n\n   /w/my docs/report.md\n",
			agents.PhaseSynthesize, "/w/my docs/report.md", ""},
		{"no path at all", "Generate a title for this conversation.", "", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			job := Recognise(tc.prompt)
			if job.Phase != tc.phase || job.Output != tc.output || job.Topic != tc.topic {
				t.Errorf("Recognise = {%q %q %q}, want {%q %q %q}", job.Phase, job.Output, job.Topic, tc.phase, tc.output, tc.topic)
			}
		})
	}
}

func TestContentMeetsPhaseContract(t *testing.T) {
	cases := []struct {
		phase agents.Phase
		want  []string
	}{
		{agents.PhasePlan, []string{"# Research Plan", "## Topics", "### Overview of Solar sails (Depth: 0)", "- Status: Pending", "- Description:", "- Acceptance Criteria:\n  - "}},
		{agents.PhaseResearch, []string{"# Progress: Solar sails", "## Findings\n- ", "## Sources\n- ", "## Knowledge Gaps\n- "}},
		{agents.PhaseSynthesize, []string{"## Executive Summary", "## Findings", "## Sources\n1. "}},
	}
	for _, tc := range cases {
		t.Run(string(tc.phase), func(t *testing.T) {
			got := Content(Job{Phase: tc.phase, Topic: "Solar sails", Prompt: "Question: Solar sails\n"})
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("content lacks %q:\n%s", w, got)
				}
			}
		})
	}
	verdicts := []struct{ script, prompt, want string }{
		{"", "Review.", "accept"},
		{"accept", "Review.", "accept"},
		{"reject", "Review.\nGaps: - " + scriptedGap, "reject"},
		{"reject-once", "Review.", "reject"},
		{"reject-once", "Review.\nGaps the previous review asked to fix:\n- " + scriptedGap, "accept"},
	}
	for _, tc := range verdicts {
		s := &Script{Verdict: tc.script}
		var v struct {
			Verdict string   `json:"verdict"`
			Summary string   `json:"summary"`
			Gaps    []string `json:"gaps"`
		}
		if err := json.Unmarshal([]byte(s.content(Job{Phase: agents.PhaseReview, Prompt: tc.prompt})), &v); err != nil {
			t.Fatalf("verdict is not JSON: %v", err)
		}
		if v.Verdict != tc.want || v.Summary == "" || (tc.want == "reject") != (len(v.Gaps) > 0) {
			t.Errorf("script %q, prompt %q: got %+v, want %s", tc.script, tc.prompt, v, tc.want)
		}
	}
	s := &Script{Subtopics: []string{"Sail materials: what the sail is made of"}}
	got := s.content(Job{Phase: agents.PhaseResearch, Prompt: "End with ## Subtopics."})
	if !strings.Contains(got, "## Subtopics\n- Sail materials: what the sail is made of\n") {
		t.Errorf("subtopics missing:\n%s", got)
	}
}

func TestResearchAnswersGaps(t *testing.T) {
	first := "Gaps found by the last review of this topic (empty on a first pass):\n\n\n\n## What to do\n"
	second := "Gaps found by the last review of this topic (empty on a first pass):\n\n- Cite a primary source\n- Date the figure\n\n## What to do\n"
	a := Content(Job{Phase: agents.PhaseResearch, Topic: "T", Prompt: first})
	b := Content(Job{Phase: agents.PhaseResearch, Topic: "T", Prompt: second})
	if a == b {
		t.Fatal("a second pass writes the same file as the first")
	}
	for _, w := range []string{`"Cite a primary source". (Source 2)`, `"Date the figure"`, "- Source 2: "} {
		if !strings.Contains(b, w) {
			t.Errorf("second pass lacks %q:\n%s", w, b)
		}
	}
	if strings.Contains(a, "Source 2") {
		t.Errorf("first pass cites a second source:\n%s", a)
	}
}

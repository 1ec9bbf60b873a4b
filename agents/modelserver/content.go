package modelserver

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/rgit-dev/rgit/agents"
)

// Content renders a valid output file for job's phase, following the phase
// contract in package agents. A revise job keeps the report it finds on
// disk (the server runs next to the client) and adds a revision note.
func Content(job Job) string {
	return (&Script{}).content(job)
}

func (s *Script) content(job Job) string {
	if s.Content != nil {
		return s.Content(job)
	}
	q := question(job.Prompt)
	topic := job.Topic
	if topic == "" {
		topic = "Overview of " + q
	}
	switch job.Phase {
	case agents.PhasePlan:
		return planContent(q)
	case agents.PhaseResearch:
		return s.researchContent(topic, job.Prompt)
	case agents.PhaseReview, agents.PhaseFinalReview:
		return s.verdict() + "\n"
	case agents.PhaseRevise:
		if old, err := os.ReadFile(job.Output); err == nil && len(old) > 0 {
			return strings.TrimRight(string(old), "\n") + "\n\nRevised to address the review's gaps.\n"
		}
		return reportContent(q)
	case agents.PhaseSynthesize:
		return reportContent(q)
	}
	return fmt.Sprintf("# %s\n\nScripted answer for %s.\n", q, job.Output)
}

func planContent(q string) string {
	return fmt.Sprintf(`# Research Plan

## Metadata
- Topic: %[1]s
- Breadth: 1
- Depth: 1

## Topics

### Overview of %[1]s (Depth: 0)
- Status: Pending
- Description: The main facts about %[1]s.
- Acceptance Criteria:
  - States the main facts with sources
`, q)
}

func (s *Script) researchContent(topic, prompt string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Progress: %s\n\n", topic)
	fmt.Fprintf(&b, "## Findings\n- %s is covered by the scripted source [1].\n\n", topic)
	b.WriteString("## Sources\n- Source 1: Scripted model server, a test fixture (https://example.com/scripted)\n\n")
	b.WriteString("## Knowledge Gaps\n- None found by the scripted model.\n")
	if strings.Contains(prompt, "Subtopics") {
		b.WriteString("\n## Subtopics\n")
		if len(s.Subtopics) == 0 {
			b.WriteString("None proposed.\n")
		}
		for _, st := range s.Subtopics {
			fmt.Fprintf(&b, "- %s\n", st)
		}
	}
	return b.String()
}

func reportContent(q string) string {
	return fmt.Sprintf(`# Report: %[1]s

## Executive Summary
A scripted summary of %[1]s, drawn from the research topics [1].

## Findings

### Overview of %[1]s
The scripted findings on %[1]s [1].

## Sources
1. Scripted model server, a test fixture (https://example.com/scripted)
`, q)
}

// verdict is the review verdict JSON of the phase contract.
func (s *Script) verdict() string {
	v := s.Verdict
	if v == "" {
		v = "accept"
	}
	out := map[string]any{"verdict": v, "summary": "Scripted review: " + v + "ed.", "gaps": []string{}}
	if v != "accept" {
		out["gaps"] = []string{"Add a second independent source."}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

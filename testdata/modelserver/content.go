package modelserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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
		topic = topicName(q)
	}
	switch job.Phase {
	case agents.PhasePlan:
		return planContent(q, number(reBreadth, job.Prompt, 1), number(reDepth, job.Prompt, 1))
	case agents.PhaseResearch:
		return s.researchContent(topic, job.Prompt)
	case agents.PhaseReview, agents.PhaseFinalReview:
		return s.verdict(job.Prompt) + "\n"
	case agents.PhaseRevise:
		if old, err := os.ReadFile(job.Output); err == nil && len(old) > 0 {
			return strings.TrimRight(string(old), "\n") + "\n\nRevised to address the review's gaps.\n"
		}
		return reportContent(q, job.Prompt)
	case agents.PhaseSynthesize:
		if strings.Contains(job.Prompt, "## The refined reports") {
			return councilReportContent(q)
		}
		return reportContent(q, job.Prompt)
	case agents.PhaseMemberResearch, agents.PhaseRefine:
		return memberReportContent(q, job.Phase)
	case agents.PhaseRank:
		return rankingContent(job.Prompt)
	}
	return fmt.Sprintf("# %s\n\nScripted answer for %s.\n", q, job.Output)
}

var reNonWord = regexp.MustCompile(`[^\pL\pN ]+`)

// topicName makes a plan-safe topic name from the question: at most eight
// plain words, no punctuation.
func topicName(q string) string {
	words := strings.Fields(reNonWord.ReplaceAllString(q, " "))
	if len(words) > 5 {
		words = words[:5]
	}
	if len(words) == 0 {
		return "Overview of the question"
	}
	return "Overview of " + strings.Join(words, " ")
}

func planContent(q string, breadth, depth int) string {
	return fmt.Sprintf(`# Research Plan

## Metadata
- Topic: %[1]s
- Breadth: %[2]d
- Depth: %[3]d

## Topics

### %[4]s (Depth: 0)
- Status: Pending
- Description: The main facts about %[1]s.
- Acceptance Criteria:
  - States the main facts with sources
  - Names what remains uncertain

## Completion Status
- Total Topics: 1
- Complete: 0
- In Progress: 0
- Pending: 1
`, strings.Join(strings.Fields(q), " "), max(breadth, 1), max(depth, 0), topicName(q))
}

// reGapsHead starts the list of the last review's gaps in a research
// prompt ("Gaps found by the last review ...").
var reGapsHead = regexp.MustCompile(`(?im)^gaps (?:found by the last review|the previous review asked)`)

// gaps lists the "- " items that follow the gaps paragraph, up to the next
// heading.
func gaps(prompt string) []string {
	loc := reGapsHead.FindStringIndex(prompt)
	if loc == nil {
		return nil
	}
	var out []string
	for _, l := range strings.Split(prompt[loc[1]:], "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "#") {
			break
		}
		if g, ok := strings.CutPrefix(l, "- "); ok && !strings.HasPrefix(g, "<") {
			out = append(out, g)
		}
	}
	return out
}

// researchContent answers every gap of the last review with a finding and a
// second source, so a second pass differs from the first: rgit takes an
// unchanged file for no answer.
func (s *Script) researchContent(topic, prompt string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Progress: %s\n\n", topic)
	if s.PageBase != "" {
		findings, sources := s.fetchedSources(topic)
		fmt.Fprintf(&b, "## Findings\n%s\n## Sources\n%s\n## Knowledge Gaps\n- Gap 1: The scripted model does no real research.\n", findings, sources)
		return b.String()
	}
	// The scripted sources name no web page: the model fetched none, and
	// rgit's citation gate fails a URL nobody fetched.
	fmt.Fprintf(&b, "## Findings\n- %s is described by the scripted test source. (Source 1)\n", topic)
	gs := gaps(prompt)
	for _, g := range gs {
		fmt.Fprintf(&b, "- Addressed the review's gap %q. (Source 2)\n", g)
	}
	b.WriteString("\n## Sources\n- Source 1: Scripted model server, rgit test fixture, 2026 (no web page)\n")
	if len(gs) > 0 {
		b.WriteString("- Source 2: Scripted second source, rgit test fixture, 2026 (no web page)\n")
	}
	b.WriteString("\n")
	b.WriteString("## Knowledge Gaps\n- Gap 1: The scripted model does no real research.\n")
	limit := number(reSubLimit, prompt, -1)
	if limit == 0 || (limit < 0 && !strings.Contains(prompt, "Subtopics")) {
		return b.String()
	}
	subs := s.Subtopics
	if limit > 0 && len(subs) > limit {
		subs = subs[:limit]
	}
	b.WriteString("\n## Subtopics\n")
	if len(subs) == 0 {
		b.WriteString("No subtopics proposed.\n")
	}
	for _, st := range subs {
		fmt.Fprintf(&b, "- %s\n  - States the main facts with sources\n  - Names what remains uncertain\n", st)
	}
	return b.String()
}

var (
	reProgressItem = regexp.MustCompile(`(?m)^\s*-\s+(.+?):\s+(/\S+\.md)\s*$`)
	rePlanHeading  = regexp.MustCompile(`(?m)^###\s+(.+?)\s+\(Depth:\s*(\d+)\)\s*$`)
)

// reportContent writes one Findings section per topic the prompt lists as
// "- Topic: /path/progress/x.md", nested by the depths in the plan file
// when the prompt names one that exists.
func reportContent(q, prompt string) string {
	depths := map[string]int{}
	for _, m := range reAbsPath.FindAllStringSubmatch(prompt, -1) {
		if filepath.Base(m[1]) == "research_plan.md" {
			if plan, err := os.ReadFile(m[1]); err == nil {
				for _, h := range rePlanHeading.FindAllStringSubmatch(string(plan), -1) {
					depths[h[1]], _ = strconv.Atoi(h[2])
				}
			}
			break
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Report: %s\n\n## Executive Summary\nA scripted summary of %s [1].\n\n", strings.Join(strings.Fields(q), " "), strings.Join(strings.Fields(q), " "))
	b.WriteString("## Methodology\nA scripted model researched and reviewed each topic of the plan.\n\n## Findings\n\n")
	topics := reProgressItem.FindAllStringSubmatch(prompt, -1)
	if len(topics) == 0 {
		topics = [][]string{{"", topicName(q)}}
	}
	for _, t := range topics {
		fmt.Fprintf(&b, "%s %s\nThe scripted findings on %s [1].\n\n", strings.Repeat("#", 3+min(depths[t[1]], 3)), t[1], t[1])
	}
	b.WriteString("## Sources\n1. Scripted model server, rgit test fixture, 2026 (no web page)\n")
	return b.String()
}

// scriptedGap is the gap a scripted rejection asks for; finding it in a
// prompt means this is the review after that rejection.
const scriptedGap = "Add a second independent source."

// verdict is the review verdict JSON of the phase contract for prompt.
func (s *Script) verdict(prompt string) string {
	v := s.Verdict
	switch {
	case v == "":
		v = "accept"
	case v == "reject-once" && strings.Contains(prompt, scriptedGap):
		v = "accept"
	case v == "reject-once":
		v = "reject"
	}
	out := map[string]any{"verdict": v, "summary": "Scripted review: " + v + "ed.", "gaps": []string{}}
	if v != "accept" {
		out["gaps"] = []string{scriptedGap}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

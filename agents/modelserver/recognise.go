package modelserver

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/rgit-dev/rgit/agents"
)

// Job is what the server understood a prompt to ask for.
type Job struct {
	Phase  agents.Phase // "" when the prompt is not an rgit phase
	Output string       // absolute path of the file to write; "" if none found
	Topic  string       // the topic under research or review, when named
	Prompt string       // the prompt text the job was recognised from
}

var (
	// An absolute path to a markdown or JSON file, as prompts render
	// output_file, report_file and friends.
	reAbsPath = regexp.MustCompile("(/[^\\s\"'`<>()\\[\\]{},;*]+\\.(?:md|json))\\b")
	// A line that names the file to produce.
	reOutputLine = regexp.MustCompile(`(?i)\b(output|write|save|create|produce|revise|edit)\b`)
	// "Topic: X" / "**Topic**: X" / "- Topic: X" lines.
	reTopicLine    = regexp.MustCompile(`(?im)^\s*(?:[-*]\s*)?\**(?:research\s+)?topic\**\s*:\**\s*(.+?)\s*$`)
	reQuestionLine = regexp.MustCompile(`(?im)^\s*(?:[-*]\s*)?\**(?:original\s+topic|question|research\s+question)\**\s*:\**\s*(.+?)\s*$`)
)

// Recognise finds the output file and the phase in a rendered rgit
// prompt. The output is the first absolute .md/.json path on a line that
// talks about writing or output, else the last such path in the prompt; the
// phase follows from that file's name (research_plan.md, progress/*.md,
// review*.json, report.md) and a few words of the prompt.
func Recognise(prompt string) Job {
	job := Job{Prompt: prompt}
	var first, last string
	for _, line := range strings.Split(prompt, "\n") {
		for _, m := range reAbsPath.FindAllStringSubmatch(line, -1) {
			last = m[1]
			if first == "" && reOutputLine.MatchString(line) {
				first = m[1]
			}
		}
	}
	job.Output = first
	if job.Output == "" {
		job.Output = last
	}
	if job.Output == "" {
		return job
	}
	job.Phase = phaseFor(job.Output, prompt)
	if m := reTopicLine.FindStringSubmatch(prompt); m != nil {
		job.Topic = strings.Trim(m[1], "*\"` ")
	}
	return job
}

// phaseFor names the phase from the output file and the prompt's words.
func phaseFor(output, prompt string) agents.Phase {
	base := filepath.Base(output)
	low := strings.ToLower(prompt)
	switch {
	case base == "research_plan.md":
		return agents.PhasePlan
	case filepath.Base(filepath.Dir(output)) == "progress":
		return agents.PhaseResearch
	case strings.HasSuffix(base, ".json") && strings.Contains(base, "review"):
		if strings.Contains(low, "final review") || strings.Contains(low, "final-review") ||
			(strings.Contains(low, "report.md") && !strings.Contains(low, "/progress/")) {
			return agents.PhaseFinalReview
		}
		return agents.PhaseReview
	case base == "report.md":
		if strings.Contains(low, "revise") || strings.Contains(low, "revision") {
			return agents.PhaseRevise
		}
		return agents.PhaseSynthesize
	}
	return agents.PhaseRefine
}

// question is the session's question as the prompt states it.
func question(prompt string) string {
	if m := reQuestionLine.FindStringSubmatch(prompt); m != nil {
		return strings.Trim(m[1], "*\"` ")
	}
	if m := reTopicLine.FindStringSubmatch(prompt); m != nil {
		return strings.Trim(m[1], "*\"` ")
	}
	return "the research question"
}

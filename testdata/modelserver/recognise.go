package modelserver

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/rgit-dev/rgit/agents"
)

// Job is what the server understood a prompt to ask for.
type Job struct {
	Phase  agents.Phase // "" when the prompt is not an rgit phase
	Output string       // absolute path of the file to write; "" if none found
	Topic  string       // the topic under research or review, when named
	Prompt string       // the prompt text the job was recognised from
	// MCP is the step of the rgit MCP script (mcp.go) when the client
	// offers rgit's tools: start, status, report, answer or error.
	MCP string
	// Result is the last tool result the request carried, in the MCP script.
	Result string
}

var (
	// An absolute path to a markdown or JSON file, as prompts render
	// output_file, report_file and friends.
	reAbsPath = regexp.MustCompile("(/[^\\s\"'`<>()\\[\\]{},;*]+\\.(?:md|json))\\b")
	// A line that talks about producing a file.
	reOutputLine = regexp.MustCompile(`(?i)\b(output|write|save|create|produce|edit)\b`)
	// A line that forbids touching the paths it names.
	reForbidLine = regexp.MustCompile(`(?i)\b(do not|don't|never|read)\b`)
	// "## Your topic: X", "Topic: X", "- **Topic**: X", "## The topic under review: X".
	reTopicLine = regexp.MustCompile(`(?im)^[#\s]*(?:[-*]\s*)?\**(?:your\s+|the\s+|research\s+)?topic(?:\s+under\s+review)?\**\s*:\**[ \t]*(\S.*?)\s*$`)
	// "## The question" or "## The session's question" headings; the
	// question is the next non-empty line.
	reQuestionHead = regexp.MustCompile(`(?im)^#+\s*the\s+(?:session's\s+)?question\s*$`)
	reQuestionLine = regexp.MustCompile(`(?im)^\s*(?:[-*]\s*)?\**(?:original\s+topic|question|research\s+question)\**\s*:\**\s*(\S.*?)\s*$`)
	reBreadth      = regexp.MustCompile(`(?m)^\s*-\s*Breadth:\s*(\d+)`)
	reDepth        = regexp.MustCompile(`(?m)^\s*-\s*Depth:\s*(\d+)`)
	reSubLimit     = regexp.MustCompile(`(?i)propose at most (\d+) subtopics`)
)

// Recognise finds the output file and the phase in a rendered rgit prompt.
//
// rgit's templates put the output file alone on a line after a line ending
// in ":" ("write the report to this file:"); that wins. Otherwise the first
// path on a line that talks about writing (and does not forbid it) wins,
// else the last path in the prompt. The phase follows from the file's name
// (research_plan.md, progress/*.md, review*.json, report.md) and a few
// words of the prompt.
func Recognise(prompt string) Job {
	job := Job{Prompt: prompt}
	var alone, worded, last string
	prev := ""
	for _, line := range strings.Split(prompt, "\n") {
		ms := reAbsPath.FindAllStringSubmatch(line, -1)
		for _, m := range ms {
			last = m[1]
			if worded == "" && reOutputLine.MatchString(line) && !reForbidLine.MatchString(line) {
				worded = m[1]
			}
		}
		// A path alone on its line may contain spaces and quotes.
		if p := strings.Trim(line, " \t`\".;:"); alone == "" && strings.HasSuffix(prev, ":") &&
			strings.HasPrefix(p, "/") && (strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".json")) {
			alone = p
		}
		if t := strings.TrimSpace(line); t != "" {
			prev = t
		}
	}
	for _, p := range []string{alone, worded, last} {
		if p != "" {
			job.Output = p
			break
		}
	}
	if job.Output == "" {
		return job
	}
	job.Phase = phaseFor(job.Output, prompt)
	job.Topic = field(reTopicLine, prompt)
	return job
}

// phaseFor names the phase from the output file and the prompt's words.
func phaseFor(output, prompt string) agents.Phase {
	base := filepath.Base(output)
	low := strings.ToLower(prompt)
	switch {
	case filepath.Base(filepath.Dir(filepath.Dir(output))) == "members" && base == "report.md":
		return agents.PhaseMemberResearch // a council member's report
	case base == "refined.md":
		return agents.PhaseRefine
	case base == "ranking.json":
		return agents.PhaseRank
	case base == "research_plan.md":
		return agents.PhasePlan
	case filepath.Base(filepath.Dir(output)) == "progress":
		return agents.PhaseResearch
	case filepath.Base(filepath.Dir(filepath.Dir(output))) == ".scratch" &&
		strings.HasPrefix(filepath.Base(filepath.Dir(output)), "research-"):
		return agents.PhaseResearch // --jobs: a research call writes in its own scratch directory
	case strings.HasSuffix(base, ".json") && strings.Contains(base, "review"):
		if strings.Contains(low, "final review") || strings.Contains(low, "final-review") {
			return agents.PhaseFinalReview
		}
		return agents.PhaseReview
	case base == "report.md":
		if strings.Contains(low, "revise") {
			return agents.PhaseRevise
		}
		return agents.PhaseSynthesize
	}
	return agents.PhaseRefine
}

// field returns the first capture of re in prompt, skipping template
// placeholders such as "<the question, on one line>".
func field(re *regexp.Regexp, prompt string) string {
	for _, m := range re.FindAllStringSubmatch(prompt, -1) {
		if v := strings.Trim(m[1], "*\"` "); v != "" && !strings.HasPrefix(v, "<") && !strings.HasPrefix(v, "$") {
			return v
		}
	}
	return ""
}

// question is the session's question as the prompt states it.
func question(prompt string) string {
	if loc := reQuestionHead.FindStringIndex(prompt); loc != nil {
		for _, l := range strings.Split(prompt[loc[1]:], "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				return l
			}
		}
	}
	if q := field(reQuestionLine, prompt); q != "" {
		return q
	}
	if q := field(reTopicLine, prompt); q != "" {
		return q
	}
	return "the research question"
}

// number returns the first integer captured by re, or def.
func number(re *regexp.Regexp, prompt string, def int) int {
	if m := re.FindStringSubmatch(prompt); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			return n
		}
	}
	return def
}

package mock

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/rgit-dev/rgit/agents"
)

// cites matches a finding's citation group, "(Source 1, Source 3)".
var cites = regexp.MustCompile(`\(Source \d+(?:, Source \d+)*\)`)

// synthesis accumulates the report's numbered sources across topics.
type synthesis struct {
	number  map[string]int // citation text -> report number
	sources []string
	read    int
}

// synthesize writes the report from the progress files of Brief.Topics:
// an executive summary, the methodology, findings by topic hierarchy
// with citations renumbered across the report, and the numbered sources.
func synthesize(b agents.Brief) output {
	s := &synthesis{number: map[string]int{}}
	children := map[string][]agents.TopicRef{}
	known := map[string]bool{}
	for _, t := range b.Topics {
		known[t.Name] = true
	}
	var roots []agents.TopicRef
	for _, t := range b.Topics {
		if t.Parent == "" || !known[t.Parent] {
			roots = append(roots, t)
		} else {
			children[t.Parent] = append(children[t.Parent], t)
		}
	}
	var findings, highlights strings.Builder
	var exhausted []string
	var walk func(t agents.TopicRef, level int)
	walk = func(t agents.TopicRef, level int) {
		fmt.Fprintf(&findings, "\n%s %s\n\n", strings.Repeat("#", min(level, 6)), t.Name)
		items, open := s.topic(t)
		for _, f := range items {
			fmt.Fprintf(&findings, "- %s\n", f)
		}
		if len(open) > 0 {
			fmt.Fprintf(&findings, "\nOpen questions: %s.\n", strings.Join(open, "; "))
		}
		if t.Exhausted {
			exhausted = append(exhausted, t.Name)
			findings.WriteString("- This topic was abandoned after repeated failures (#RETRY_EXHAUSTED); its findings are incomplete.\n")
		} else if len(items) == 0 {
			findings.WriteString("- No findings were recorded for this topic.\n")
		}
		if level == 3 && len(items) > 0 {
			fmt.Fprintf(&highlights, "- %s: %s\n", t.Name, items[0])
		}
		for _, c := range children[t.Name] {
			walk(c, level+1)
		}
	}
	for _, t := range roots {
		walk(t, 3)
	}

	var body strings.Builder
	fmt.Fprintf(&body, "# Research Report: %s\n\n## Executive Summary\n\n", oneLine(b.Question))
	fmt.Fprintf(&body, "This report answers the question %q from the research of %d topics. The key finding of each main topic:\n\n%s",
		oneLine(b.Question), len(b.Topics), highlights.String())
	body.WriteString("\n## Methodology\n\n")
	fmt.Fprintf(&body, "The question was divided into %d main topics, refined into subtopics up to %d per topic and down to depth %d. "+
		"Each topic was researched, then reviewed against its acceptance criteria, and researched again when the review found gaps.\n",
		len(roots), b.Breadth, b.Depth)
	if len(exhausted) == 0 {
		body.WriteString("\nNo topic was abandoned.\n")
	} else {
		body.WriteString("\nTopics abandoned after repeated failures (#RETRY_EXHAUSTED):\n\n")
		for _, name := range exhausted {
			fmt.Fprintf(&body, "- %s\n", name)
		}
	}
	body.WriteString("\n## Findings\n")
	body.WriteString(findings.String())
	body.WriteString("\n## Sources\n\n")
	for i, src := range s.sources {
		fmt.Fprintf(&body, "%d. %s\n", i+1, src)
	}
	return output{body: body.String(), read: s.read,
		text: fmt.Sprintf("Synthesized the report from %d topics and %d sources.", len(b.Topics), len(s.sources))}
}

// topic returns a topic's findings, with their citations renumbered,
// and its knowledge gaps.
func (s *synthesis) topic(t agents.TopicRef) (findings, gaps []string) {
	if t.Progress == "" {
		return nil, nil
	}
	data, err := os.ReadFile(t.Progress)
	if err != nil {
		return nil, nil
	}
	s.read += len(data)
	local := map[string]string{} // "Source 2" -> "[7]"
	for _, item := range sectionItems(string(data), "## Sources") {
		label, text, ok := strings.Cut(item, ": ")
		if !ok {
			label, text = "", item
		}
		n, seen := s.number[text]
		if !seen {
			s.sources = append(s.sources, text)
			n = len(s.sources)
			s.number[text] = n
		}
		if label != "" {
			local[label] = "[" + strconv.Itoa(n) + "]"
		}
	}
	for _, g := range sectionItems(string(data), "## Knowledge Gaps") {
		if _, text, ok := strings.Cut(g, ": "); ok && strings.HasPrefix(g, "Gap ") {
			g = text
		}
		gaps = append(gaps, strings.TrimSuffix(g, "."))
	}
	for _, f := range sectionItems(string(data), "## Findings") {
		findings = append(findings, cites.ReplaceAllStringFunc(f, func(group string) string {
			var refs []string
			for _, label := range strings.Split(strings.Trim(group, "()"), ", ") {
				if ref, ok := local[label]; ok {
					refs = append(refs, ref)
				}
			}
			return strings.Join(refs, ", ")
		}))
	}
	return findings, gaps
}

// sectionItems returns the top-level "- " list items under heading.
func sectionItems(text, heading string) []string {
	var items []string
	in := false
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, " \t\r\n")
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == heading
		case in && strings.HasPrefix(line, "- "):
			items = append(items, strings.TrimSpace(line[2:]))
		}
	}
	return items
}

// revise answers each gap with a paragraph at the end of the section the
// gap names (the Executive Summary when it names none), editing the
// report in place and adding no research.
func revise(path string, b agents.Brief) (output, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return output{}, fmt.Errorf("read report to revise: %w", err)
	}
	text := string(data)
	for _, g := range b.Gaps {
		section := "Executive Summary"
		for _, name := range []string{"Executive Summary", "Methodology", "Findings", "Sources"} {
			if strings.HasPrefix(g, name) {
				section = name
			}
		}
		fix, ok := reportFixes[g]
		if !ok {
			fix = fmt.Sprintf("A limitation raised in review remains open, as the research does not settle it: %s.", strings.TrimSuffix(oneLine(g), "."))
		}
		text = appendToSection(text, "## "+section, fix)
	}
	return output{body: text, read: len(data),
		text: fmt.Sprintf("Revised the report for %d review gaps.", len(b.Gaps))}, nil
}

// appendToSection adds a paragraph at the end of the section under
// heading, or a new section at the end when there is none.
func appendToSection(text, heading, para string) string {
	start := strings.Index(text, "\n"+heading+"\n")
	if start < 0 {
		return strings.TrimRight(text, "\n") + "\n\n" + heading + "\n\n" + para + "\n"
	}
	end := len(text)
	if next := strings.Index(text[start+len(heading)+2:], "\n## "); next >= 0 {
		end = start + len(heading) + 2 + next
	}
	return strings.TrimRight(text[:end], "\n") + "\n\n" + para + "\n" + text[end:]
}

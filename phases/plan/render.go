package plan

import (
	"strconv"
	"strings"
)

// Render writes p as canonical research_plan.md. Names are escaped so that
// Parse reads them back exactly; descriptions, criteria and extra items are
// markdown and written as they are. The Completion Status section is
// recomputed from the statuses, never copied.
func Render(p *Plan) []byte {
	var b strings.Builder
	b.Grow(256 + 200*len(p.Topics))
	b.WriteString("# Research Plan\n\n## Metadata\n- Topic: ")
	b.WriteString(oneLine(p.Topic)) // a question typed with newlines stays one item
	b.WriteString("\n- Breadth: ")
	b.WriteString(strconv.Itoa(p.Breadth))
	b.WriteString("\n- Depth: ")
	b.WriteString(strconv.Itoa(p.Depth))
	b.WriteString("\n\n## Topics\n")
	for _, t := range p.Topics {
		b.WriteString("\n### ")
		b.WriteString(escape(t.Name))
		b.WriteString(" (Depth: ")
		b.WriteString(strconv.Itoa(t.Depth))
		b.WriteString(")\n- Status: ")
		b.WriteString(string(t.Status))
		if t.Parent != "" {
			b.WriteString("\n- Parent: ")
			b.WriteString(escape(t.Parent))
		}
		b.WriteString("\n")
		if t.Description == "" {
			b.WriteString("- Description:\n")
		} else {
			item(&b, "", "Description: ", t.Description)
		}
		b.WriteString("- Acceptance Criteria:\n")
		for _, c := range t.Criteria {
			item(&b, "  ", "", c)
		}
		for _, x := range t.Extra {
			item(&b, "", "", x)
		}
	}
	c := p.Counts()
	b.WriteString("\n## Completion Status\n- Total Topics: ")
	b.WriteString(strconv.Itoa(c.Total))
	b.WriteString("\n- Complete: ")
	b.WriteString(strconv.Itoa(c.Complete))
	b.WriteString("\n- In Review: ")
	b.WriteString(strconv.Itoa(c.InReview))
	b.WriteString("\n- In Progress: ")
	b.WriteString(strconv.Itoa(c.InProgress))
	b.WriteString("\n- Pending: ")
	b.WriteString(strconv.Itoa(c.Pending))
	b.WriteString("\n")
	return []byte(b.String())
}

// item writes label+md as a list item at indent, continuation lines
// indented to the item's content column.
func item(b *strings.Builder, indent, label, md string) {
	b.WriteString(indent)
	if label == "" && dashes(md) {
		b.WriteString("*") // "- --" would be a thematic break
	} else {
		b.WriteString("-")
	}
	if label != "" || md != "" && md[0] != '\n' {
		b.WriteString(" ")
	}
	b.WriteString(label)
	for {
		line, rest, more := strings.Cut(md, "\n")
		b.WriteString(line)
		b.WriteString("\n")
		if !more {
			return
		}
		if next, _, _ := strings.Cut(rest, "\n"); next != "" {
			b.WriteString(indent)
			b.WriteString("  ")
		}
		md = rest
	}
}

// dashes reports whether md's first line is only hyphens and spaces, which
// after a "-" bullet would read as a thematic break.
func dashes(md string) bool {
	line, _, _ := strings.Cut(md, "\n")
	return strings.Trim(line, "- \t") == "" && strings.Count(line, "-") >= 2
}

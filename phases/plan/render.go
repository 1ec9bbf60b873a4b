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
	b := make([]byte, 0, renderSize(p))
	b = append(b, "# Research Plan\n\n## Metadata\n- Topic: "...)
	b = append(b, oneLine(p.Topic)...) // a question typed with newlines stays one item
	b = append(b, "\n- Breadth: "...)
	b = append(b, strconv.Itoa(p.Breadth)...)
	b = append(b, "\n- Depth: "...)
	b = append(b, strconv.Itoa(p.Depth)...)
	b = append(b, "\n\n## Topics\n"...)
	for _, t := range p.Topics {
		b = append(b, "\n### "...)
		b = append(b, escape(t.Name)...)
		b = append(b, " (Depth: "...)
		b = append(b, strconv.Itoa(t.Depth)...)
		b = append(b, ")\n- Status: "...)
		b = append(b, string(t.Status)...)
		if t.Parent != "" {
			b = append(b, "\n- Parent: "...)
			b = append(b, escape(t.Parent)...)
		}
		b = append(b, '\n')
		if t.Description == "" {
			b = append(b, "- Description:\n"...)
		} else {
			b = item(b, "", "Description: ", t.Description)
		}
		b = append(b, "- Acceptance Criteria:\n"...)
		for _, c := range t.Criteria {
			b = item(b, "  ", "", c)
		}
		for _, x := range t.Extra {
			b = item(b, "", "", x)
		}
	}
	c := p.Counts()
	b = append(b, "\n## Completion Status\n- Total Topics: "...)
	b = append(b, strconv.Itoa(c.Total)...)
	b = append(b, "\n- Complete: "...)
	b = append(b, strconv.Itoa(c.Complete)...)
	b = append(b, "\n- In Review: "...)
	b = append(b, strconv.Itoa(c.InReview)...)
	b = append(b, "\n- In Progress: "...)
	b = append(b, strconv.Itoa(c.InProgress)...)
	b = append(b, "\n- Pending: "...)
	b = append(b, strconv.Itoa(c.Pending)...)
	b = append(b, '\n')
	return b
}

// renderSize is about the length of p's rendering, so that Render fills
// one buffer without growing it.
func renderSize(p *Plan) int {
	n := 256 + len(p.Topic)
	for _, t := range p.Topics {
		n += 96 + 2*len(t.Name) + 2*len(t.Parent) + len(t.Description)
		for _, c := range t.Criteria {
			n += 8 + len(c)
		}
		for _, x := range t.Extra {
			n += 8 + len(x)
		}
	}
	return n
}

// item appends label+md to b as a list item at indent, continuation lines
// indented to the item's content column.
func item(b []byte, indent, label, md string) []byte {
	b = append(b, indent...)
	if label == "" && dashes(md) {
		b = append(b, '*') // "- --" would be a thematic break
	} else {
		b = append(b, '-')
	}
	if label != "" || md != "" && md[0] != '\n' {
		b = append(b, ' ')
	}
	b = append(b, label...)
	for {
		line, rest, more := strings.Cut(md, "\n")
		b = append(b, line...)
		b = append(b, '\n')
		if !more {
			return b
		}
		if next, _, _ := strings.Cut(rest, "\n"); next != "" {
			b = append(b, indent...)
			b = append(b, "  "...)
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

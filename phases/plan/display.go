package plan

import (
	"strconv"
	"strings"
)

// marks are the status boxes of the text tree.
var marks = map[Status]string{Pending: "[ ]", InProgress: "[~]", InReview: "[?]", Complete: "[x]"}

// Tree renders the plan as an indented text tree, two spaces per depth, one
// topic per line with a status box and the status:
//
//	[x] Foundations (Complete)
//	  [~] History (In Progress)
func Tree(p *Plan) string {
	var b strings.Builder
	kids := childIndex(p)
	// An invalid plan (a salvaged draft with duplicate names) can loop
	// through parents; each topic is shown once.
	shown := make(map[*Topic]bool, len(p.Topics))
	var walk func(parent string, indent int)
	walk = func(parent string, indent int) {
		for _, t := range kids[parent] {
			if shown[t] {
				continue
			}
			shown[t] = true
			b.WriteString(strings.Repeat("  ", indent))
			mark, ok := marks[t.Status]
			if !ok {
				mark = "[!]"
			}
			b.WriteString(mark + " " + t.Name + " (" + string(t.Status) + ")\n")
			walk(t.Name, indent+1)
		}
	}
	walk("", 0)
	return b.String()
}

// childIndex maps a parent name to its children in plan order; "" holds the
// roots. Built once so the views stay linear in the plan's size.
func childIndex(p *Plan) map[string][]*Topic {
	kids := make(map[string][]*Topic, len(p.Topics))
	for _, t := range p.Topics {
		if t.Name != "" && t.Name == t.Parent {
			continue // a self-parent would recurse forever
		}
		kids[t.Parent] = append(kids[t.Parent], t)
	}
	return kids
}

// classes are the Mermaid class names, one per status.
var classes = map[Status]string{Pending: "pending", InProgress: "inprogress", InReview: "inreview", Complete: "complete"}

// Mermaid renders the plan as a fenced ```mermaid flowchart (top-down), one
// node per topic, an edge from each parent, and one classDef per status so
// the colours show progress where GitHub renders the report.
func Mermaid(p *Plan) string {
	var b strings.Builder
	b.WriteString("```mermaid\nflowchart TD\n")
	ids := make(map[string]string, len(p.Topics))
	for i, t := range p.Topics {
		id := "t" + strconv.Itoa(i)
		ids[t.Name] = id
		class, ok := classes[t.Status]
		if !ok {
			class = "pending"
		}
		b.WriteString("  " + id + "[\"" + mermaidLabel(t.Name) + "\"]:::" + class + "\n")
	}
	for _, t := range p.Topics {
		if from, ok := ids[t.Parent]; ok && t.Parent != "" {
			b.WriteString("  " + from + " --> " + ids[t.Name] + "\n")
		}
	}
	b.WriteString("  classDef pending fill:#f2f2f2,stroke:#999,color:#333\n")
	b.WriteString("  classDef inprogress fill:#fff4cc,stroke:#d4a000,color:#333\n")
	b.WriteString("  classDef inreview fill:#dbeafe,stroke:#2563eb,color:#333\n")
	b.WriteString("  classDef complete fill:#dcfce7,stroke:#16a34a,color:#333\n")
	b.WriteString("```\n")
	return b.String()
}

// mermaidLabel escapes a name for a quoted Mermaid label, where quotes and
// angle brackets would end the label or open HTML.
func mermaidLabel(s string) string {
	return strings.NewReplacer("\"", "#quot;", "<", "#lt;", ">", "#gt;", "\n", " ").Replace(s)
}

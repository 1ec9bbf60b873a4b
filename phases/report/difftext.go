package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// WriteText writes the diff for people: the plan diff, the sources diff
// per topic, a summary of the sections followed by the unified diff of
// each changed section, and usage side by side.
func (d Diff) WriteText(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "--- a: %s\n+++ b: %s\n", sideLine(d.A), sideLine(d.B))

	t := d.Topics
	fmt.Fprintf(&b, "\nTopics: %d added, %d removed, %d changed status, %d unchanged\n", len(t.Added), len(t.Removed), len(t.Changed), t.Unchanged)
	for _, c := range t.Added {
		fmt.Fprintf(&b, "  + %s (%s)%s\n", c.Name, c.StatusB, under(c.Parent))
	}
	for _, c := range t.Removed {
		fmt.Fprintf(&b, "  - %s (%s)%s\n", c.Name, c.StatusA, under(c.Parent))
	}
	for _, c := range t.Changed {
		fmt.Fprintf(&b, "  ~ %s: %s -> %s\n", c.Name, c.StatusA, c.StatusB)
	}

	s := d.Sources
	fmt.Fprintf(&b, "\nSources: %d cited by both, %d only by a, %d only by b\n", len(s.Both), len(s.OnlyA), len(s.OnlyB))
	for _, ts := range s.Topics {
		name := ts.Topic
		if name == "" {
			name = "(outside any topic)"
		}
		fmt.Fprintf(&b, "  %s: %d both, %d only a, %d only b\n", name, len(ts.Both), len(ts.OnlyA), len(ts.OnlyB))
		for _, k := range ts.OnlyA {
			fmt.Fprintf(&b, "    - %s\n", k)
		}
		for _, k := range ts.OnlyB {
			fmt.Fprintf(&b, "    + %s\n", k)
		}
	}

	writeSections(&b, d.Sections)
	writeUsage(&b, d.Usage)
	_, err := w.Write(b.Bytes())
	return err
}

func sideLine(s Side) string {
	out := s.Name
	if s.Branch != "" {
		out += " (" + s.Branch
		if s.Head != "" {
			out += " @ " + short(s.Head)
		}
		out += ")"
	}
	if s.Question != "" {
		out += fmt.Sprintf(" %q", s.Question)
	}
	return out
}

func under(parent string) string {
	if parent == "" {
		return ""
	}
	return ", under " + parent
}

// commonRoot is the title every section is under (a report's one
// level-1 heading), which the text leaves out of each section's name.
func commonRoot(secs []SectionDiff) string {
	root := ""
	for i, s := range secs {
		if len(s.Path) == 0 || (i > 0 && s.Path[0] != root) {
			return ""
		}
		root = s.Path[0]
	}
	return root
}

func sectionName(path []string, root string) string {
	if root != "" && len(path) > 0 {
		path = path[1:]
		if len(path) == 0 {
			return "(" + root + ")"
		}
	}
	if len(path) == 0 {
		return "(before the first heading)"
	}
	return strings.Join(path, " > ")
}

func writeSections(b *bytes.Buffer, secs []SectionDiff) {
	count := map[string]int{}
	for _, s := range secs {
		count[s.Status]++
	}
	fmt.Fprintf(b, "\nSections: %d changed, %d only in a, %d only in b, %d unchanged\n",
		count[SectionChanged], count[SectionOnlyA], count[SectionOnlyB], count[SectionUnchanged])
	root := commonRoot(secs)
	if root != "" {
		fmt.Fprintf(b, "  (all under %q)\n", root)
	}
	marks := map[string]string{SectionChanged: "~", SectionOnlyA: "-", SectionOnlyB: "+", SectionUnchanged: " "}
	for _, s := range secs {
		fmt.Fprintf(b, "  %s %s", marks[s.Status], sectionName(s.Path, root))
		if s.Status != SectionUnchanged {
			fmt.Fprintf(b, " (+%d -%d)", s.Added, s.Removed)
		}
		b.WriteByte('\n')
	}
	for _, s := range secs {
		if s.Status != SectionChanged {
			continue
		}
		name := sectionName(s.Path, root)
		fmt.Fprintf(b, "\n--- a/%s\n+++ b/%s\n", name, name)
		for _, h := range s.Hunks {
			fmt.Fprintf(b, "@@ -%d,%d +%d,%d @@\n", h.FromA, h.LinesA, h.FromB, h.LinesB)
			for _, l := range h.Lines {
				b.WriteString(l + "\n")
			}
		}
	}
}

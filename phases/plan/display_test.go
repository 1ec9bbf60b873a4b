package plan

import (
	"strings"
	"testing"
)

func TestTreeIndentsByDepth(t *testing.T) {
	p := readPlan(t, "canonical.md")
	lines := strings.Split(strings.TrimSuffix(Tree(p), "\n"), "\n")
	if len(lines) != len(p.Topics) {
		t.Fatalf("%d lines for %d topics:\n%s", len(lines), len(p.Topics), Tree(p))
	}
	for _, line := range lines {
		trimmed := strings.TrimLeft(line, " ")
		name := trimmed[4:strings.LastIndex(trimmed, " (")]
		tp := p.Find(name)
		if tp == nil {
			t.Fatalf("line %q names no topic", line)
		}
		if indent := len(line) - len(trimmed); indent != 2*tp.Depth {
			t.Errorf("%q indented %d, want %d", name, indent, 2*tp.Depth)
		}
		if !strings.HasPrefix(trimmed, marks[tp.Status]+" ") || !strings.HasSuffix(line, "("+string(tp.Status)+")") {
			t.Errorf("line %q does not show status %s", line, tp.Status)
		}
	}
}

func TestMermaid(t *testing.T) {
	p := statuses(`Say "hi" <b>:0::complete`, "B:0::in review", "C:1:B:in progress", "D:1:B:pending")
	m := Mermaid(p)
	if !strings.HasPrefix(m, "```mermaid\nflowchart TD\n") || !strings.HasSuffix(m, "```\n") {
		t.Errorf("not a mermaid fence:\n%s", m)
	}
	for _, want := range []string{
		`t0["Say #quot;hi#quot; #lt;b#gt;"]:::complete`,
		"t1 --> t2", "t1 --> t3",
		"classDef pending ", "classDef inprogress ", "classDef inreview ", "classDef complete ",
	} {
		if !strings.Contains(m, want) {
			t.Errorf("mermaid lacks %q:\n%s", want, m)
		}
	}
	if strings.Count(m, "-->") != 2 {
		t.Errorf("want 2 edges:\n%s", m)
	}
}

// Tree must end on invalid plans too: duplicate names can form a loop.
func TestTreeOnLoop(t *testing.T) {
	p := statuses("A:0::pending", "B:1:A:pending", "A:2:B:pending")
	if got := strings.Count(Tree(p), "\n"); got != 3 {
		t.Errorf("Tree printed %d lines for 3 topics:\n%s", got, Tree(p))
	}
}

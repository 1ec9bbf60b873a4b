package report

import (
	"bytes"
	"io"
	"strings"

	"github.com/rgit-dev/rgit/phases/plan"
)

// treeMarks are the status boxes of the terminal tree, as in plan.Tree.
var treeMarks = map[string]string{string(plan.Complete): "[x]", string(plan.InReview): "[?]",
	string(plan.InProgress): "[~]", string(plan.Pending): "[ ]"}

// RenderShow writes what `rgit show` prints in a terminal: the question,
// a line of facts about the session (state, topics, iterations, agents,
// usage, time), the topic tree with statuses, then the report laid out by
// RenderTerminal, its Mermaid chart pointing up at the tree.
func RenderShow(w io.Writer, s *Session, opt TermOptions) error {
	opt.Width = max(opt.Width, 20)
	r := &termRenderer{opt: opt}
	if s.Question != "" {
		r.wrapped([]piece{{text: clean(s.Question), style: styleBold}}, "", "", opt.Width)
	}
	var fs []string
	if s.Name != "" {
		fs = append(fs, "session "+s.Name)
	}
	fs = append(fs, facts(s)...)
	if len(fs) > 0 {
		// Facts wrap between items, never inside one.
		var ps []piece
		for i, f := range fs {
			if i > 0 {
				ps = append(ps, piece{text: " ·", style: styleDim}, piece{text: " "})
			}
			ps = append(ps, piece{text: strings.ReplaceAll(clean(f), " ", "\u00a0"), style: styleDim})
		}
		var line bytes.Buffer
		for _, l := range wrap(words(ps), opt.Width) {
			line.Reset()
			line.WriteString(strings.ReplaceAll(r.paint(l), "\u00a0", " "))
			r.line("", line.String())
		}
	}
	if nodes := topicTree(s.Plan, s.Exhausted, nil); len(nodes) > 0 {
		r.line("", "")
		r.wrapped([]piece{{text: "Topic tree", style: styleHead2}}, "", "", opt.Width)
		r.tree(nodes, "  ")
		opt.Tree = "(the topic tree is shown at the top)"
	}
	r.line("", "")
	rule := strings.Repeat("=", opt.Width)
	if opt.Color {
		rule = "\x1b[" + styleDim + "m" + strings.Repeat("═", opt.Width) + "\x1b[0m"
	}
	r.line("", rule)
	r.line("", "")
	if _, err := w.Write(r.out.Bytes()); err != nil {
		return err
	}
	return RenderTerminal(w, s.Report, opt)
}

// tree writes topics one a line, two columns deeper per level; a long
// name wraps under itself.
func (r *termRenderer) tree(nodes []treeNode, indent string) {
	for _, n := range nodes {
		mark, ok := treeMarks[n.Status]
		if !ok {
			mark = "[!]"
		}
		ps := []piece{{text: mark + " "}, {text: clean(n.Name), style: styleBold}, {text: " (" + clean(n.Status) + ")", style: styleDim}}
		if n.Exhausted {
			ps = append(ps, piece{text: " exhausted", style: "31"})
		}
		r.wrapped(ps, indent, indent+"    ", r.opt.Width-len(indent)-4)
		r.tree(n.Children, indent+"  ")
	}
}

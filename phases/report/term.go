package report

import (
	"bytes"
	"io"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// TermOptions say how to lay a report out for a terminal.
type TermOptions struct {
	Width int  // columns to wrap to; under 20 counts as 20
	Color bool // ANSI styles; see ColorEnabled
	// Tree replaces a ```mermaid block (the report's topic tree, which a
	// terminal cannot draw), for example plan.Tree's text; "" shows the
	// block as code.
	Tree string
}

// ColorEnabled decides whether terminal output is styled: only on a
// terminal, and never when NO_COLOR is set to anything (no-color.org) or
// TERM is "dumb". getenv is os.Getenv in production.
func ColorEnabled(getenv func(string) string, isTerminal bool) bool {
	return isTerminal && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}

// RenderTerminal lays out a Markdown report for a terminal: headings,
// paragraphs wrapped to the width, lists, code blocks, block quotes, links
// as text plus URL, and tables. Text is stripped of control characters, so
// a report cannot send escape sequences to the terminal.
func RenderTerminal(w io.Writer, md []byte, opt TermOptions) error {
	opt.Width = max(opt.Width, 20)
	r := &termRenderer{src: md, opt: opt}
	r.children(parseMarkdown(md), "", "", false)
	_, err := w.Write(r.out.Bytes())
	return err
}

type termRenderer struct {
	src []byte
	opt TermOptions
	out bytes.Buffer
}

// line writes one line: prefix, then text, without trailing spaces.
func (r *termRenderer) line(prefix, text string) {
	r.out.WriteString(strings.TrimRight(prefix+text, " "))
	r.out.WriteByte('\n')
}

// children renders a container's blocks. The first line written gets the
// prefix first, every later one rest: that is how list markers and quote
// bars nest. tight lists have no blank line between their blocks.
func (r *termRenderer) children(n ast.Node, first, rest string, tight bool) {
	prefix := first
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c != n.FirstChild() && !tight {
			r.line(rest, "")
		}
		r.block(c, prefix, rest)
		prefix = rest
	}
}

// block renders one block with the prefixes of its container.
func (r *termRenderer) block(n ast.Node, first, rest string) {
	width := r.opt.Width - textWidth(rest)
	switch t := n.(type) {
	case *ast.Heading:
		styles := map[int]string{1: styleHead1, 2: styleHead2}
		st, ok := styles[t.Level]
		if !ok {
			st = styleHead
		}
		marks := piece{text: strings.Repeat("#", t.Level) + " ", style: st}
		r.wrapped(append([]piece{marks}, r.inlines(t, st)...), first, rest, width)
	case *ast.Paragraph, *ast.TextBlock:
		r.wrapped(r.inlines(n, ""), first, rest, width)
	case *ast.List:
		r.list(t, first, rest)
	case *ast.Blockquote:
		bar := "> "
		if r.opt.Color {
			bar = "\x1b[" + styleQuote + "m│\x1b[0m "
		}
		r.children(t, first+bar, rest+bar, false)
	case *ast.FencedCodeBlock:
		if lang := string(t.Language(r.src)); lang == "mermaid" && r.opt.Tree != "" {
			r.verbatim(strings.Split(strings.TrimRight(r.opt.Tree, "\n"), "\n"), first, rest, "")
			return
		}
		r.verbatim(r.codeLines(t), first, rest, styleCode)
	case *ast.CodeBlock, *ast.HTMLBlock:
		r.verbatim(r.codeLines(t), first, rest, styleCode)
	case *ast.ThematicBreak:
		rule := strings.Repeat("-", width)
		if r.opt.Color {
			rule = "\x1b[" + styleDim + "m" + strings.Repeat("─", width) + "\x1b[0m"
		}
		r.line(first, rule)
	case *east.Table:
		r.table(t, first, rest, width)
	case *east.FootnoteList:
		for item := t.FirstChild(); item != nil; item = item.NextSibling() {
			if fn, ok := item.(*east.Footnote); ok {
				mark := "[^" + itoa(fn.Index) + "] "
				r.children(fn, first+mark, rest+strings.Repeat(" ", len(mark)), false)
			}
			first = rest
		}
	default:
		r.children(n, first, rest, false)
	}
}

// wrapped writes inline pieces wrapped to width.
func (r *termRenderer) wrapped(ps []piece, first, rest string, width int) {
	for i, l := range wrap(words(ps), width) {
		p := rest
		if i == 0 {
			p = first
		}
		r.line(p, r.paint(l))
	}
}

// codeLines returns a code block's lines, cleaned; tabs become four spaces
// so columns stay where the author put them.
func (r *termRenderer) codeLines(n ast.Node) []string {
	var out []string
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		l := strings.ReplaceAll(string(trimLine(seg.Value(r.src))), "\t", "    ")
		out = append(out, clean(l))
	}
	return out
}

// verbatim writes lines indented by four columns, unwrapped: code keeps
// its shape, and the terminal folds what is too long.
func (r *termRenderer) verbatim(lines []string, first, rest, style string) {
	for i, l := range lines {
		p := rest
		if i == 0 {
			p = first
		}
		r.line(p, "    "+r.paint([]piece{{text: l, style: style}}))
	}
}

// list renders items with "- " or right-aligned "N. " markers; the items'
// blocks hang under the text, past the marker.
func (r *termRenderer) list(l *ast.List, first, rest string) {
	n := l.ChildCount()
	numWidth := len(itoa(l.Start + n - 1))
	i := 0
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		if i > 0 && !l.IsTight {
			r.line(rest, "")
		}
		mark := "- "
		if l.IsOrdered() {
			num := itoa(l.Start + i)
			mark = strings.Repeat(" ", numWidth-len(num)) + num + ". "
		}
		p := rest
		if i == 0 {
			p = first
		}
		r.children(item, p+mark, rest+strings.Repeat(" ", len(mark)), l.IsTight)
		i++
	}
}

package report

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// inlines turns n's inline children into styled pieces. Without color the
// markup that carries meaning stays visible as text: `code` keeps its
// backticks (a local citation is recognisable), a link shows its URL.
func (r *termRenderer) inlines(n ast.Node, style string) []piece {
	var out []piece
	add := func(text, st string) {
		if text = clean(text); text != "" {
			out = append(out, piece{text: text, style: st})
		}
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch t := c.(type) {
		case *ast.Text:
			add(string(t.Segment.Value(r.src)), style)
			switch {
			case t.HardLineBreak():
				out = append(out, lineBreak[0])
			case t.SoftLineBreak():
				add(" ", style)
			}
		case *ast.String:
			add(string(t.Value), style)
		case *ast.CodeSpan:
			code := plainText(t, r.src)
			if r.opt.Color {
				add(code, addStyle(style, styleCode))
			} else {
				add("`"+code+"`", style)
			}
		case *ast.Emphasis:
			st := styleItalic
			if t.Level >= 2 {
				st = styleBold
			}
			out = append(out, r.inlines(t, addStyle(style, st))...)
		case *east.Strikethrough:
			if r.opt.Color {
				out = append(out, r.inlines(t, addStyle(style, styleStrike))...)
			} else {
				add("~~", style)
				out = append(out, r.inlines(t, style)...)
				add("~~", style)
			}
		case *ast.Link:
			out = append(out, r.link(r.inlines(t, addStyle(style, styleUnder)), string(t.Destination), style)...)
		case *ast.AutoLink:
			add(string(t.Label(r.src)), addStyle(style, styleUnder))
		case *ast.Image:
			// Shown as what it is, never fetched.
			alt := []piece{{text: clean("[image: " + plainText(t, r.src) + "]"), style: style}}
			out = append(out, r.link(alt, string(t.Destination), style)...)
		case *east.TaskCheckBox:
			box := "[ ] "
			if t.IsChecked {
				box = "[x] "
			}
			add(box, style)
		case *east.FootnoteLink:
			add("[^"+itoa(t.Index)+"]", style)
		case *ast.RawHTML:
			// Shown as the text it is: a terminal runs no HTML.
			for i := 0; i < t.Segments.Len(); i++ {
				seg := t.Segments.At(i)
				add(string(seg.Value(r.src)), addStyle(style, styleDim))
			}
		default:
			out = append(out, r.inlines(c, style)...)
		}
	}
	return out
}

// link shows a link as its text followed by the URL in parentheses, or
// the URL alone when the text says nothing else.
func (r *termRenderer) link(text []piece, dest, style string) []piece {
	dest = clean(dest)
	var label strings.Builder
	for _, p := range text {
		label.WriteString(p.text)
	}
	if dest == "" || label.String() == dest {
		if len(text) == 0 {
			return []piece{{text: dest, style: addStyle(style, styleUnder)}}
		}
		return text
	}
	out := append([]piece(nil), text...)
	if len(text) > 0 {
		out = append(out, piece{text: " ", style: style})
	}
	return append(out, piece{text: "(" + dest + ")", style: addStyle(style, styleDim)})
}

// paint renders pieces as terminal text, styled when color is on.
func (r *termRenderer) paint(ps []piece) string {
	var b strings.Builder
	for _, p := range ps {
		if r.opt.Color && p.style != "" && strings.TrimSpace(p.text) != "" {
			b.WriteString("\x1b[" + p.style + "m" + p.text + "\x1b[0m")
		} else {
			b.WriteString(p.text)
		}
	}
	return b.String()
}

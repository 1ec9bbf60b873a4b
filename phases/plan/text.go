package plan

// Reading text out of goldmark's AST: positions, lines and plain text.

import (
	"bytes"
	"sort"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// source is a plan file with its line index.
type source struct {
	src   []byte
	lines []int // byte offset of the start of each line
	limit int   // the end of the document or piece being read
}

func newSource(src []byte) *source {
	s := &source{src: src, limit: len(src), lines: make([]int, 1, bytes.Count(src, []byte{'\n'})+1)}
	for i, b := range src {
		if b == '\n' {
			s.lines = append(s.lines, i+1)
		}
	}
	return s
}

// line converts a byte offset to a 1-based line number.
func (s *source) line(off int) int {
	if off < 0 {
		return 0
	}
	return sort.Search(len(s.lines), func(i int) bool { return s.lines[i] > off })
}

// lineStart returns the offset of the start of the line holding off.
func (s *source) lineStart(off int) int { return s.lines[s.line(off)-1] }

// start returns where node n begins in the source, or -1.
func start(n ast.Node) int {
	if p := n.Pos(); p >= 0 {
		return p
	}
	if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
		return n.Lines().At(0).Start
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if p := start(c); p >= 0 {
			return p
		}
	}
	return -1
}

// end returns where the first node after n (and outside it) begins, or the
// end of the document or piece being read: the extent of a list item
// including everything nested.
func (s *source) end(n ast.Node) int {
	for ; n != nil; n = n.Parent() {
		for next := n.NextSibling(); next != nil; next = next.NextSibling() {
			if p := start(next); p >= 0 {
				return p
			}
		}
	}
	return s.limit
}

// plain is the text of an inline container with markup removed, escapes
// and entities resolved, and whitespace collapsed: how names are compared.
func (s *source) plain(n ast.Node) string {
	// Most items are one Text node of plain words: take it as it is.
	if c := n.FirstChild(); c != nil && c.NextSibling() == nil {
		if t, ok := c.(*ast.Text); ok {
			if v := t.Value(s.src); simple(v) {
				return string(v)
			}
		}
	}
	var b bytes.Buffer
	s.collect(&b, n)
	v := b.Bytes()
	if simple(v) {
		return string(v)
	}
	v = util.UnescapePunctuations(v)
	v = util.ResolveNumericReferences(v)
	v = util.ResolveEntityNames(v)
	return strings.Join(strings.Fields(string(v)), " ")
}

// simple reports whether v needs no unescaping or whitespace folding.
func simple(v []byte) bool {
	if len(v) == 0 || v[0] == ' ' || v[len(v)-1] == ' ' {
		return len(v) == 0
	}
	for i, c := range v {
		switch {
		case c == '\\' || c == '&' || c < ' ' || c >= 0x80:
			return false
		case c == ' ' && v[i+1] == ' ':
			return false
		}
	}
	return true
}

// collect gathers text the way goldmark's HTML renderer does (Node.Text is
// deprecated): String and Text values, recursing into everything else.
func (s *source) collect(b *bytes.Buffer, n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Value(s.src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.AutoLink:
			b.Write(c.Label(s.src))
		case *ast.RawHTML:
			// Tags carry no text.
		default:
			s.collect(b, c)
		}
	}
}

// blockText returns a leaf block's markdown, one trimmed line per source line.
func (s *source) blockText(n ast.Node) string {
	if l := n.Lines(); l.Len() == 1 {
		seg := l.At(0)
		return string(bytes.TrimSpace(seg.Value(s.src)))
	}
	var out []string
	for i, l := 0, n.Lines(); i < l.Len(); i++ {
		seg := l.At(i)
		out = append(out, strings.TrimSpace(string(seg.Value(s.src))))
	}
	// Lines of only exotic whitespace (form feeds) trim to nothing.
	return strings.Trim(strings.Join(out, "\n"), "\n")
}

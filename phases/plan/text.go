package plan

import (
	"bytes"
	"sort"
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// source is a plan file with its line index.
type source struct {
	src   []byte
	lines []int // byte offset of the start of each line
}

func newSource(src []byte) *source {
	s := &source{src: src, lines: make([]int, 1, bytes.Count(src, []byte{'\n'})+1)}
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
// end of the source: the extent of a list item including everything nested.
func (s *source) end(n ast.Node) int {
	for ; n != nil; n = n.Parent() {
		for next := n.NextSibling(); next != nil; next = next.NextSibling() {
			if p := start(next); p >= 0 {
				return p
			}
		}
	}
	return len(s.src)
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

// raw returns the markdown of list item li verbatim: its content lines from
// the item's content column on, with the item's indentation removed,
// trailing spaces and leading and trailing blank lines dropped. Nested lists
// stay in.
func (s *source) raw(li *ast.ListItem) string {
	from, to := li.Pos(), s.end(li)
	if from < 0 || to <= from {
		return ""
	}
	// goldmark's Offset is relative to the enclosing item's content column.
	col := 0
	for n := ast.Node(li); n != nil; n = n.Parent() {
		if item, ok := n.(*ast.ListItem); ok {
			col += item.Offset
		}
	}
	ls := s.lineStart(from)
	chunk := s.src[ls:to]
	if nl := bytes.IndexByte(chunk, '\n'); nl < 0 || len(bytes.TrimSpace(chunk[nl:])) == 0 {
		// One line, the common case: cut at the content column.
		line := bytes.TrimRight(chunk, " \t\n")
		if col <= len(line) && bytes.IndexByte(line[:col], '\t') < 0 {
			return string(line[col:])
		}
	}
	// Blank out the marker so the first line's content column is counted
	// like the others'.
	buf := []byte(string(chunk))
	for i := from - ls; i < len(buf) && strings.IndexByte("-*+0123456789.)", buf[i]) >= 0; i++ {
		buf[i] = ' '
	}
	lines := strings.Split(string(buf), "\n")
	for i := range lines {
		lines[i] = strings.TrimRightFunc(dropColumns(lines[i], col), unicode.IsSpace)
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	// Content that starts on the line after the marker is rendered on the
	// marker's line, where it means the same.
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	if len(lines) > 0 {
		// Up to three spaces before content are insignificant there, and
		// the marker's content column absorbs them on reparse.
		if sp := len(lines[0]) - len(strings.TrimLeft(lines[0], " ")); sp < 4 {
			lines[0] = lines[0][sp:]
		}
	}
	return strings.Join(lines, "\n")
}

// dropColumns removes up to n columns of leading whitespace, expanding tabs
// to the next multiple of 4 as CommonMark does.
func dropColumns(line string, n int) string {
	col := 0
	for i := 0; i < len(line); i++ {
		if col >= n {
			return line[i:]
		}
		switch line[i] {
		case ' ':
			col++
		case '\t':
			next := col + 4 - col%4
			if next > n {
				return strings.Repeat(" ", next-n) + line[i+1:]
			}
			col = next
		default:
			return line[i:]
		}
	}
	return ""
}

// afterLabel strips the "Label:" prefix from an item's raw markdown,
// including the emphasis around a bold label ("**Status:** x").
func afterLabel(raw string) string {
	marks := len(raw) - len(strings.TrimLeft(raw, "*_"))
	i := strings.IndexByte(raw, ':')
	if i < 0 {
		return ""
	}
	rest := raw[i+1:]
	for k := 0; k < marks && rest != "" && (rest[0] == '*' || rest[0] == '_'); k++ {
		rest = rest[1:]
	}
	// A value that starts on the next line is rendered on the label's line.
	return strings.TrimLeft(rest, " \t\n")
}

// escape makes s safe as inline markdown so that plain() reads it back
// unchanged: every character that could start markup gets a backslash.
func escape(s string) string {
	if !strings.ContainsAny(s, "\\`*_[]<>&!#|~") {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>&!#|~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// unbracket removes the square brackets of the format's placeholders
// ("[Topic Name]").
func unbracket(s string) string {
	for len(s) >= 2 && s[0] == '[' && s[len(s)-1] == ']' {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
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
	return strings.Join(out, "\n")
}

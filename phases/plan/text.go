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
	var b bytes.Buffer
	s.collect(&b, n)
	v := util.UnescapePunctuations(b.Bytes())
	v = util.ResolveNumericReferences(v)
	v = util.ResolveEntityNames(v)
	return strings.Join(strings.Fields(string(v)), " ")
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
// the marker's content column on, with the item's indentation removed,
// trailing spaces and blank lines dropped. Nested lists stay in.
func (s *source) raw(li *ast.ListItem) string {
	from, to := li.Pos(), s.end(li)
	if from < 0 || to <= from {
		return ""
	}
	col := from - s.lineStart(from) + li.Offset
	lines := strings.Split(string(s.src[from:to]), "\n")
	marker := len(lines[0]) - len(strings.TrimLeft(lines[0], "-*+0123456789.)"))
	lines[0] = dropColumns(lines[0][marker:], li.Offset-marker)
	for i := 1; i < len(lines); i++ {
		lines[i] = dropColumns(lines[i], col)
	}
	for i := range lines {
		lines[i] = strings.TrimRightFunc(lines[i], unicode.IsSpace)
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
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
	return strings.TrimLeft(rest, " \t")
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
	var out []string
	for i, l := 0, n.Lines(); i < l.Len(); i++ {
		seg := l.At(i)
		out = append(out, strings.TrimSpace(string(seg.Value(s.src))))
	}
	return strings.Join(out, "\n")
}

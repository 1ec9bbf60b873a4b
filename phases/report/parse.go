package report

import (
	"bytes"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// newMarkdown is the one Markdown dialect of every view: GitHub's (tables,
// strikethrough, bare URLs as links, task lists) with footnotes and heading
// IDs, so a report reads the same in the terminal, the HTML page and on a
// git host. Attribute syntax ({#id onclick=...}) is deliberately not
// enabled: a report must not set attributes of its own. The extensions are
// goldmark's extension.GFM, in its order, with linkify (goldmark's Linkify
// without its slow regexps) for Linkify.
func newMarkdown() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(linkify{}, extension.Table, extension.Strikethrough, extension.TaskList, extension.Footnote),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	)
}

// parseMarkdown parses src into goldmark's AST.
func parseMarkdown(src []byte) ast.Node {
	return newMarkdown().Parser().Parse(text.NewReader(src))
}

// lineIndex maps byte offsets of a source to 1-based line numbers.
type lineIndex []int // offsets where lines start

func newLineIndex(src []byte) lineIndex {
	idx := make(lineIndex, 1, bytes.Count(src, []byte{'\n'})+1)
	for i := 0; ; i++ {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			return idx
		}
		i += j
		idx = append(idx, i+1)
	}
}

func (l lineIndex) line(off int) int {
	return sort.Search(len(l), func(i int) bool { return l[i] > off })
}

// plainText joins the text of n's inline descendants: what a reader sees of
// a heading or a list item, without markup, its white space collapsed to
// single spaces and trimmed.
func plainText(n ast.Node, src []byte) string {
	return string(collapseSpace(appendText(nil, n, src)))
}

// appendText appends the text of n's inline descendants to b, as is.
func appendText(b []byte, n ast.Node, src []byte) []byte {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch t := c.(type) {
		case *ast.Text:
			b = append(b, t.Segment.Value(src)...)
			if t.SoftLineBreak() || t.HardLineBreak() {
				b = append(b, ' ')
			}
		case *ast.String:
			b = append(b, t.Value...)
		case *ast.AutoLink:
			b = append(b, t.Label(src)...)
		case *ast.RawHTML:
			// Markup, not text.
		default:
			b = appendText(b, c, src)
		}
	}
	return b
}

// collapseSpace is strings.Join(strings.Fields(b), " ") in place: runs of
// white space (unicode.IsSpace) become one space, none at either end.
// Other bytes, invalid UTF-8 included, are kept as they are.
func collapseSpace(b []byte) []byte {
	w, space := 0, false
	for r := 0; r < len(b); {
		size := 1
		if c := b[r]; c < utf8.RuneSelf {
			if isASCIISpace(c) {
				space, r = true, r+1
				continue
			}
		} else {
			var c rune
			c, size = utf8.DecodeRune(b[r:])
			if unicode.IsSpace(c) {
				space, r = true, r+size
				continue
			}
		}
		if space && w > 0 {
			b[w] = ' '
			w++
		}
		space = false
		w += copy(b[w:], b[r:r+size])
		r += size
	}
	return b[:w]
}

// isASCIISpace is unicode.IsSpace for a byte below utf8.RuneSelf.
func isASCIISpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// headingTracker follows the heading path while a walk goes through a
// document's top-level blocks in order.
type headingTracker struct {
	path   []string
	levels []int
	bib    []bool   // whether each heading opens a sources list (isBibliography)
	copied []string // current's copy of path, until the path changes
}

func (h *headingTracker) enter(level int, title string) {
	for len(h.levels) > 0 && h.levels[len(h.levels)-1] >= level {
		h.levels = h.levels[:len(h.levels)-1]
		h.path = h.path[:len(h.path)-1]
		h.bib = h.bib[:len(h.bib)-1]
	}
	h.levels = append(h.levels, level)
	h.path = append(h.path, title)
	h.bib = append(h.bib, isBibliography(title))
	h.copied = nil
}

// current returns a copy of the path, safe to keep; the blocks under one
// heading share it (full, so an append copies).
func (h *headingTracker) current() []string {
	if h.copied == nil {
		h.copied = slices.Clip(append([]string(nil), h.path...))
	}
	return h.copied
}

// isBibliography says whether a heading title opens the list of sources.
func isBibliography(title string) bool {
	t := strings.ToLower(strings.TrimSpace(title))
	for _, p := range []string{"sources", "references", "bibliography", "works cited"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// inBibliography reports, for the heading path of a block, whether the
// block is inside the sources section: a level-1 or level-2 heading named
// like one and everything under it.
func inBibliography(h *headingTracker) bool {
	for i, bib := range h.bib {
		if bib && h.levels[i] <= 2 {
			return true
		}
	}
	return false
}

// trimLine drops a trailing newline and carriage return.
func trimLine(b []byte) []byte { return bytes.TrimRight(b, "\r\n") }

func itoa(n int) string { return strconv.Itoa(n) }

package report

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// Document is a report's sources list and its citations in document order.
type Document struct {
	Sources   []Source
	Citations []Citation
	Sections  []string // the level-2 headings' plain text, lowercased, in document order

	mermaid *[2]int // the first top-level ```mermaid block's content bytes
}

// Citations returns a report's citations in document order.
func Citations(md []byte) []Citation { return Parse(md).Citations }

// Parse finds a report's sources list and its citations, and resolves
// each numbered citation to its source entry.
func Parse(md []byte) *Document {
	sc := &scanner{src: md, lines: newLineIndex(md), doc: &Document{}}
	root := parseMarkdown(md)
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		switch t := n.(type) {
		case *ast.Heading:
			title := sc.plainText(t)
			sc.heads.enter(t.Level, title)
			if t.Level == 2 {
				sc.doc.Sections = append(sc.doc.Sections, strings.ToLower(title))
			}
			continue
		case *ast.FencedCodeBlock:
			if sc.doc.mermaid == nil && t.Lines().Len() > 0 && string(t.Language(md)) == "mermaid" {
				sc.doc.mermaid = &[2]int{t.Lines().At(0).Start, t.Lines().At(t.Lines().Len() - 1).Stop}
			}
		}
		if inBibliography(&sc.heads) {
			sc.sources(n)
			continue
		}
		sc.inline(n)
	}
	// The first entry of a number is the one it cites, as in Source.
	index := make(map[int]int, len(sc.doc.Sources))
	for i := len(sc.doc.Sources) - 1; i >= 0; i-- {
		index[sc.doc.Sources[i].Number] = i
	}
	for i := range sc.doc.Citations {
		c := &sc.doc.Citations[i]
		if c.Kind != Numbered {
			continue
		}
		if j, ok := index[c.Number]; ok {
			c.Source = &sc.doc.Sources[j]
		}
	}
	return sc.doc
}

// Source returns the entry numbered n, or nil.
func (d *Document) Source(n int) *Source {
	for i := range d.Sources {
		if d.Sources[i].Number == n {
			return &d.Sources[i]
		}
	}
	return nil
}

type scanner struct {
	src   []byte
	lines lineIndex
	heads headingTracker
	doc   *Document
	buf   []byte // plainText's, reused
}

// plainText is plainText(n, sc.src) without a buffer of its own for each
// of a report's thousands of headings, links and entries.
func (sc *scanner) plainText(n ast.Node) string {
	sc.buf = appendText(sc.buf[:0], n, sc.src)
	return string(collapseSpace(sc.buf))
}

func (sc *scanner) add(c Citation) {
	c.Offset = c.span[0]
	c.Line = sc.lines.line(c.Offset)
	c.Section = sc.heads.current()
	sc.doc.Citations = append(sc.doc.Citations, c)
}

// inline collects the citations of n's inline content, in order. A run of
// adjacent Text children (see textRuns) is searched for numbers when it
// ends, before the node that ends it.
func (sc *scanner) inline(n ast.Node) {
	var run, last *ast.Text // the run's first and last Text
	flush := func() {
		if run != nil {
			sc.numbered(run.Segment.Start, last.Segment.Stop)
			run = nil
		}
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		t, isText := c.(*ast.Text)
		if isText {
			if run != nil && (last.Segment.Stop != t.Segment.Start || last.SoftLineBreak() || last.HardLineBreak()) {
				flush()
			}
			if run == nil {
				run = t
			}
			last = t
			continue
		}
		flush()
		switch t := c.(type) {
		case *ast.CodeSpan:
			if content, span, ok := codeSpanText(t, sc.src); ok {
				if path, from, to, ok := parseLocal(content); ok {
					sc.add(Citation{Kind: Local, Text: "`" + content + "`", Path: path, From: from, To: to, span: span})
				}
			}
		case *ast.AutoLink:
			if t.AutoLinkType == ast.AutoLinkURL {
				seg := autoLinkSpan(t, sc.src)
				u := string(t.URL(sc.src))
				sc.add(Citation{Kind: URL, Text: u, URL: u, span: seg})
			}
		case *ast.Link:
			label := sc.plainText(t)
			u := string(t.Destination)
			sc.add(Citation{Kind: Link, Text: "[" + label + "](" + u + ")", URL: u, Label: label, span: linkSpan(t)})
		case *ast.Image, *ast.RawHTML:
			// Neither cites anything.
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			// Quoted data.
		default:
			sc.inline(c)
		}
	}
	flush()
}

// numbered adds the numbered citations of src[start:stop].
func (sc *scanner) numbered(start, stop int) {
	for _, s := range numberSpans(sc.src[start:stop]) {
		num := 0
		for _, d := range sc.src[start+s[0] : start+s[1]] {
			num = num*10 + int(d-'0')
		}
		sc.add(Citation{Kind: Numbered, Text: "[" + strconv.Itoa(num) + "]", Number: num, span: [2]int{start + s[0], start + s[1]}})
	}
}

// autoLinkSpan is the byte range of an autolink's visible text.
func autoLinkSpan(t *ast.AutoLink, src []byte) [2]int {
	label := t.Label(src)
	if first, ok := t.FirstChild().(*ast.Text); ok {
		return [2]int{first.Segment.Start, first.Segment.Start + len(label)}
	}
	return [2]int{t.Pos(), t.Pos() + len(label)}
}

// linkSpan locates a link by the start of its text (goldmark keeps no
// position for the brackets and the destination).
func linkSpan(l *ast.Link) [2]int {
	for c := ast.Node(l); c != nil; c = c.FirstChild() {
		if t, ok := c.(*ast.Text); ok {
			return [2]int{max(t.Segment.Start-1, 0), t.Segment.Stop}
		}
	}
	return [2]int{l.Pos(), l.Pos()}
}

package report

import (
	"strconv"

	"github.com/yuin/goldmark/ast"
)

// Document is a report's sources list and its citations in document order.
type Document struct {
	Sources   []Source
	Citations []Citation
}

// Citations returns a report's citations in document order.
func Citations(md []byte) []Citation { return Parse(md).Citations }

// Parse finds a report's sources list and its citations, and resolves
// each numbered citation to its source entry.
func Parse(md []byte) *Document {
	sc := &scanner{src: md, lines: newLineIndex(md), doc: &Document{}}
	root := parseMarkdown(md)
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			sc.heads.enter(h.Level, plainText(h, md))
			continue
		}
		if inBibliography(&sc.heads) {
			sc.sources(n)
			continue
		}
		sc.inline(n)
	}
	for i := range sc.doc.Citations {
		c := &sc.doc.Citations[i]
		if c.Kind == Numbered {
			c.Source = sc.doc.Source(c.Number)
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
}

func (sc *scanner) add(c Citation) {
	c.Offset = c.span[0]
	c.Line = sc.lines.line(c.Offset)
	c.Section = sc.heads.current()
	sc.doc.Citations = append(sc.doc.Citations, c)
}

// inline collects the citations of n's inline content, in order.
func (sc *scanner) inline(n ast.Node) {
	runs := textRuns(n)
	next := 0
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch t := c.(type) {
		case *ast.Text:
			if next < len(runs) && runs[next][0] == t {
				sc.numbered(runs[next])
				next++
			}
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
			label := plainText(t, sc.src)
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
}

func (sc *scanner) numbered(run []*ast.Text) {
	start, stop := runSpan(run)
	for _, s := range numberSpans(sc.src[start:stop]) {
		num, err := strconv.Atoi(string(sc.src[start+s[0] : start+s[1]]))
		if err != nil {
			continue
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

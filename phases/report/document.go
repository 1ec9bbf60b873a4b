package report

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// Source is one entry of a report's sources list ("## Sources",
// "## References" or "## Bibliography"), which numbered citations name.
type Source struct {
	Number int    // the entry's number: its place in an ordered list, or a leading "[n]"
	Text   string // the entry as plain text
	URL    string // the first URL in the entry, if any
	Path   string // the first file path in backticks (a range is cut off), if any
	Line   int    // 1-based line in the report
}

// Key names the source for comparison: its URL, else its file, else its
// text.
func (s Source) Key() string {
	switch {
	case s.URL != "":
		return s.URL
	case s.Path != "":
		return s.Path
	}
	return s.Text
}

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

// entryNumberRE reads a number an unordered entry starts with: "[3] ...",
// "3. ...", "Source 3: ...".
var entryNumberRE = regexp.MustCompile(`^(?:\[(\d+)\]|(\d+)[.)]|Source (\d+):)\s*`)

// entryNumber is the number of the i-th entry of a sources list: its place
// in an ordered list, else the number it starts with, else its position.
func entryNumber(list *ast.List, i int, text string) int {
	if list.IsOrdered() {
		return list.Start + i
	}
	if m := entryNumberRE.FindStringSubmatch(text); m != nil {
		if n, err := strconv.Atoi(m[1] + m[2] + m[3]); err == nil {
			return n
		}
	}
	return i + 1
}

// urlRE finds a URL in an entry's plain text when it is not a link.
var urlRE = regexp.MustCompile(`https?://[^\s<>()\[\]]+[^\s<>()\[\].,;:!?'"]`)

// sources reads the entries of the lists in a sources section.
func (sc *scanner) sources(n ast.Node) {
	list, ok := n.(*ast.List)
	if !ok {
		return
	}
	for i, it := 0, list.FirstChild(); it != nil; i, it = i+1, it.NextSibling() {
		text := plainText(it, sc.src)
		s := Source{Number: entryNumber(list, i, text), Text: text, Line: sc.lines.line(it.Pos())}
		s.URL, s.Path = entryTarget(it, sc.src)
		if s.URL == "" {
			s.URL = urlRE.FindString(text)
		}
		sc.doc.Sources = append(sc.doc.Sources, s)
	}
}

// entryTarget returns the first link destination and the first code path
// of a sources entry.
func entryTarget(item ast.Node, src []byte) (url, path string) {
	_ = ast.Walk(item, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := n.(type) {
		case *ast.AutoLink:
			if url == "" && t.AutoLinkType == ast.AutoLinkURL {
				url = string(t.URL(src))
			}
		case *ast.Link:
			if url == "" {
				url = string(t.Destination)
			}
		case *ast.CodeSpan:
			if content, _, ok := codeSpanText(t, src); ok && path == "" && !strings.ContainsAny(content, " \t") {
				path = content
				if p, _, _, ok := parseLocal(content); ok {
					path = p
				}
			}
		}
		return ast.WalkContinue, nil
	})
	return url, path
}

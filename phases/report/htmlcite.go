package report

import (
	"strconv"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Element IDs of the page's own parts. The "rgit-" prefix keeps them apart
// from the heading IDs goldmark derives from the report's headings.
const (
	treeID     = "rgit-topic-tree"
	metaID     = "rgit-session"
	passagesID = "rgit-cited-passages"
)

func sourceID(n int) string  { return "rgit-source-" + strconv.Itoa(n) }
func passageID(k int) string { return "rgit-passage-" + strconv.Itoa(k) }

// passage is one cited line range of a local file, listed at the end of
// the page so a local citation has somewhere to point.
type passage struct {
	Path     string
	From, To int
}

// citeLinker turns a report's citations into links within the page.
type citeLinker struct {
	src      []byte
	doc      *Document
	heads    headingTracker
	passages []passage
	index    map[passage]int
	ids      map[int]bool // source numbers given an ID
}

// linkCitations links every numbered citation with a source entry to that
// entry (which gets its ID here), and every local citation to its passage
// in the list it returns, in order of first citation. A dangling number
// stays text: a link must never point at nothing.
func linkCitations(root ast.Node, src []byte, doc *Document) []passage {
	lc := &citeLinker{src: src, doc: doc, index: map[passage]int{}, ids: map[int]bool{}}
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			lc.heads.enter(h.Level, plainText(h, src))
			continue
		}
		if inBibliography(&lc.heads) {
			lc.entryIDs(n)
			continue
		}
		lc.inline(n)
	}
	return lc.passages
}

// entryIDs gives the items of a sources list the IDs numbered citations
// link to, numbered as Parse numbers them.
func (lc *citeLinker) entryIDs(n ast.Node) {
	list, ok := n.(*ast.List)
	if !ok {
		return
	}
	for i, it := 0, list.FirstChild(); it != nil; i, it = i+1, it.NextSibling() {
		num := entryNumber(list, i, plainText(it, lc.src))
		// A number given twice (two lists both from 1) keeps its first
		// entry, as Document.Source does, so IDs stay unique.
		if lc.doc.Source(num) != nil && !lc.ids[num] {
			lc.ids[num] = true
			it.SetAttributeString("id", []byte(sourceID(num)))
		}
	}
}

func (lc *citeLinker) inline(n ast.Node) {
	for _, run := range textRuns(n) {
		lc.numbered(n, run)
	}
	for c := n.FirstChild(); c != nil; {
		next := c.NextSibling()
		switch t := c.(type) {
		case *ast.CodeSpan:
			lc.local(n, t)
		case *ast.Link, *ast.AutoLink, *ast.Text, *ast.String:
			// Already a link, or text handled as runs.
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			// Quoted data.
		default:
			lc.inline(c)
		}
		c = next
	}
}

// numbered replaces a run of text by text and links, one link per number
// with a source entry.
func (lc *citeLinker) numbered(parent ast.Node, run []*ast.Text) {
	start, stop := runSpan(run)
	var spans [][2]int
	for _, s := range numberSpans(lc.src[start:stop]) {
		num, _ := strconv.Atoi(string(lc.src[start+s[0] : start+s[1]]))
		if lc.doc.Source(num) != nil {
			spans = append(spans, [2]int{start + s[0], start + s[1]})
		}
	}
	if len(spans) == 0 {
		return
	}
	last := run[len(run)-1]
	at := start
	var tail *ast.Text
	for _, s := range spans {
		if s[0] > at {
			parent.InsertBefore(parent, run[0], ast.NewTextSegment(text.NewSegment(at, s[0])))
		}
		num, _ := strconv.Atoi(string(lc.src[s[0]:s[1]]))
		l := citeLink(sourceID(num), ast.NewTextSegment(text.NewSegment(s[0], s[1])))
		parent.InsertBefore(parent, run[0], l)
		at = s[1]
	}
	tail = ast.NewTextSegment(text.NewSegment(at, stop))
	tail.SetSoftLineBreak(last.SoftLineBreak())
	tail.SetHardLineBreak(last.HardLineBreak())
	parent.InsertBefore(parent, run[0], tail)
	for _, t := range run {
		parent.RemoveChild(parent, t)
	}
}

// local wraps a local citation's code span in a link to its passage.
func (lc *citeLinker) local(parent ast.Node, cs *ast.CodeSpan) {
	content, _, ok := codeSpanText(cs, lc.src)
	if !ok {
		return
	}
	path, from, to, ok := parseLocal(content)
	if !ok {
		return
	}
	p := passage{Path: path, From: from, To: to}
	k, seen := lc.index[p]
	if !seen {
		lc.passages = append(lc.passages, p)
		k = len(lc.passages)
		lc.index[p] = k
	}
	l := citeLink(passageID(k), nil)
	parent.ReplaceChild(parent, cs, l)
	l.AppendChild(l, cs)
}

// citeLink is a link to an anchor of the page, classed as a citation.
func citeLink(id string, child ast.Node) *ast.Link {
	l := ast.NewLink()
	l.Destination = []byte("#" + id)
	l.SetAttributeString("class", []byte("cite"))
	if child != nil {
		l.AppendChild(l, child)
	}
	return l
}

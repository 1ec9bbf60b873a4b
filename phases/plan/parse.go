package plan

import (
	"bytes"
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// md is shared: goldmark's parser initialises once and keeps per-call state
// in a fresh context, so it is safe for concurrent use.
var md = goldmark.New().Parser()

// Parse reads a research_plan.md and validates it. file names the plan in
// errors. Every error is an *Error with the line to fix; it is the first
// problem in the file. Parse returns the plan as far as it could read it
// even with an error (malformed items skipped), so a caller can salvage an
// agent's draft; only a nil error means the plan is valid.
func Parse(file string, src []byte) (*Plan, error) {
	if bytes.IndexByte(src, '\r') >= 0 {
		// CRLF and lone CR end lines in CommonMark; one LF keeps line
		// numbers and raw text uniform.
		src = bytes.ReplaceAll(bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n")), []byte("\r"), []byte("\n"))
	}
	return parse(file, src, pieceSize(len(src)))
}

// parse is Parse with goldmark's work split in pieces of about size bytes.
func parse(file string, src []byte, size int) (*Plan, error) {
	s := newSource(src)
	ps := &parser{file: file, s: s, p: &Plan{}}
	if !parsePieces(src, cuts(src, size), runtime.GOMAXPROCS(0), ps.doc) {
		ps = &parser{file: file, s: s, p: &Plan{}}
		ps.doc(md.Parse(text.NewReader(src)), len(src))
	}
	ps.note(ps.finish())
	ps.resolve()
	if ps.err != nil {
		return ps.p, ps.err
	}
	return ps.p, ps.p.Validate(file)
}

// doc reads the top-level blocks of a document, or of a piece of one that
// ends at offset end. The plan's structure is the sequence of top-level
// blocks: each is consumed whole (headings, lists with their nested items).
func (ps *parser) doc(doc ast.Node, end int) {
	ps.s.limit = end
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		ps.note(ps.block(n))
	}
}

// section is the level-2 part of the file being read.
type section int

const (
	secNone section = iota
	secMeta
	secTopics
	secOther
)

type parser struct {
	file string
	s    *source
	p    *Plan
	sec  section
	cur  *Topic // the topic whose items are being read
	seen uint16 // bit set of the fields already set on cur
	err  error  // the first problem met; reading goes on past it
}

// note keeps the first error; the parser skips what was malformed and goes
// on, so that Parse can return everything it could read.
func (ps *parser) note(err error) {
	if ps.err == nil {
		ps.err = err
	}
}

func (ps *parser) errorf(off int, format string, args ...any) error {
	return &Error{File: ps.file, Line: ps.s.line(off), Msg: fmt.Sprintf(format, args...)}
}

// block handles one top-level block of the document.
func (ps *parser) block(n ast.Node) error {
	switch n := n.(type) {
	case *ast.Heading:
		return ps.heading(n)
	case *ast.List:
		for li := n.FirstChild(); li != nil; li = li.NextSibling() {
			ps.note(ps.item(li.(*ast.ListItem)))
		}
	case *ast.ThematicBreak:
		// Separators between topics are decoration.
	case *ast.Paragraph:
		if ps.cur == nil {
			return nil
		}
		txt := ps.s.plain(n)
		if l, _ := splitLabel(txt); l != fNone {
			return ps.errorf(start(n), "%q under topic %q is not a list item; write it as \"- %s\"", txt, ps.cur.Name, txt)
		}
		if v := ps.s.blockText(n); v != "" {
			ps.cur.Extra = append(ps.cur.Extra, v)
		}
	default:
		if ps.cur != nil {
			return ps.errorf(start(n), "unexpected %s under topic %q; put it inside a list item", n.Kind(), ps.cur.Name)
		}
	}
	return nil
}

func (ps *parser) heading(h *ast.Heading) error {
	if err := ps.finish(); err != nil {
		return err
	}
	txt := ps.s.plain(h)
	name, depth, hasDepth := splitDepth(txt)
	switch {
	case hasDepth || (ps.sec == secTopics && h.Level >= 3):
		if depth == -2 {
			ps.cur = nil // its items must not land on the topic before
			return ps.errorf(start(h), "bad depth in heading %q; write \"(Depth: N)\" with a whole number N", txt)
		}
		ps.cur = &Topic{Name: unbracket(name), Depth: depth, Line: ps.s.line(start(h))}
		ps.seen = 0
		ps.p.Topics = append(ps.p.Topics, ps.cur)
		return nil
	case h.Level == 1:
		ps.sec = secNone
	case h.Level == 2:
		switch strings.ToLower(txt) {
		case "metadata":
			ps.sec = secMeta
			ps.p.metaLine = ps.s.line(start(h))
		case "topics":
			ps.sec = secTopics
		default:
			ps.sec = secOther
		}
	}
	ps.cur = nil
	return nil
}

// finish checks the topic just read. A heading under ## Topics without a
// depth is taken for a topic only when it has topic fields; otherwise it is
// most likely a note, and guessing would invent a topic.
func (ps *parser) finish() error {
	t := ps.cur
	if t == nil || t.Depth != -1 || ps.seen&^(1<<fTopic|1<<fBreadth) != 0 {
		return nil
	}
	ps.p.Topics = ps.p.Topics[:len(ps.p.Topics)-1]
	ps.cur = nil
	return &Error{File: ps.file, Line: t.Line, Msg: fmt.Sprintf("heading %q under ## Topics is not a topic; write \"### %s (Depth: N)\" followed by \"- Status: Pending\", or move it out of ## Topics", t.Name, t.Name)}
}

// splitDepth splits "Name (Depth: N)" into its parts. depth is -1 when the
// heading has no depth suffix and -2 when the suffix is not a number.
func splitDepth(txt string) (name string, depth int, ok bool) {
	i := strings.LastIndexByte(txt, '(')
	if i < 0 || !strings.HasSuffix(txt, ")") {
		return txt, -1, false
	}
	inner := strings.ToLower(strings.TrimSpace(txt[i+1 : len(txt)-1]))
	rest, found := strings.CutPrefix(inner, "depth")
	if !found {
		return txt, -1, false
	}
	rest = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(rest), ":="))
	name = strings.TrimSpace(txt[:i])
	d, err := strconv.Atoi(rest)
	if err != nil || d < 0 {
		return name, -2, true
	}
	return name, d, true
}

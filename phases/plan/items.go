package plan

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// field is a list item label the plan format defines.
type field uint8

const (
	fNone field = iota
	fTopic
	fBreadth
	fDepth
	fStatus
	fParent
	fDescription
	fCriteria
)

var fieldNames = [...]string{"", "topic", "breadth", "depth", "status", "parent", "description", "acceptance criteria"}

// labels are the spellings people and agents use for each field, matched
// without regard to case.
var labels = []struct {
	text string
	f    field
}{
	{"topic", fTopic}, {"research topic", fTopic}, {"question", fTopic},
	{"breadth", fBreadth}, {"depth", fDepth}, {"status", fStatus},
	{"parent", fParent}, {"parent topic", fParent}, {"description", fDescription},
	{"acceptance criteria", fCriteria}, {"acceptance criterion", fCriteria}, {"criteria", fCriteria},
}

// splitLabel splits "Label: value" plain text into a known field and the
// value; f is fNone when the text does not start with a known label.
func splitLabel(txt string) (f field, value string) {
	i := strings.IndexByte(txt, ':')
	if i < 0 {
		return fNone, ""
	}
	key := strings.TrimSpace(txt[:i])
	for _, l := range labels {
		if strings.EqualFold(key, l.text) {
			return l.f, strings.TrimSpace(txt[i+1:])
		}
	}
	return fNone, ""
}

// item reads one list item: a metadata field, a topic field, or an unknown
// item kept in the topic's Extra.
func (ps *parser) item(li *ast.ListItem) error {
	first := li.FirstChild()
	lab, val := fNone, ""
	if first != nil && (first.Kind() == ast.KindTextBlock || first.Kind() == ast.KindParagraph) {
		lab, val = splitLabel(ps.s.plain(first))
	}
	off := li.Pos()
	if ps.cur == nil {
		if ps.sec == secMeta || ps.sec == secNone {
			return ps.meta(lab, val, first, off)
		}
		return nil
	}
	t := ps.cur
	if lab != fNone && lab != fTopic && lab != fBreadth {
		if ps.seen&(1<<lab) != 0 {
			return ps.errorf(off, "topic %q has a second %q item; keep one", t.Name, fieldNames[lab])
		}
		ps.seen |= 1 << lab
	}
	switch lab {
	case fStatus:
		t.statusLine = ps.s.line(off)
		if st, ok := ParseStatus(val); ok {
			t.Status = st
		} else {
			t.Status = Status(val)
		}
	case fParent:
		t.parentLine = ps.s.line(off)
		t.Parent = unbracket(val)
	case fDepth:
		d, err := number(val)
		if err != nil || d < 0 {
			return ps.errorf(off, "depth %q of topic %q is not a whole number; write \"(Depth: N)\" in its heading", val, t.Name)
		}
		if t.Depth >= 0 && t.Depth != d {
			return ps.errorf(off, "topic %q has depth %d in its heading but %d here; keep one", t.Name, t.Depth, d)
		}
		t.Depth = d
	case fDescription:
		t.Description = afterLabel(ps.s.raw(li))
	case fCriteria:
		if v := ps.inline(first); v != "" {
			t.Criteria = append(t.Criteria, v)
		}
		for c := first.NextSibling(); c != nil; c = c.NextSibling() {
			l, ok := c.(*ast.List)
			if !ok {
				// A paragraph or code between the criteria is kept as
				// one, not dropped.
				if v := ps.s.rawBlock(c, ps.s.lineStart(start(c)), false); v != "" {
					t.Criteria = append(t.Criteria, v)
				}
				continue
			}
			for ci := l.FirstChild(); ci != nil; ci = ci.NextSibling() {
				// An empty item carries nothing, and written back it
				// would underline the label into a heading.
				if v := ps.s.raw(ci.(*ast.ListItem)); v != "" {
					t.Criteria = append(t.Criteria, v)
				}
			}
		}
	default:
		if v := ps.s.raw(li); v != "" {
			t.Extra = append(t.Extra, v)
		}
	}
	return nil
}

// inline is the raw markdown after the label of an item's first block,
// folded onto one line.
func (ps *parser) inline(first ast.Node) string {
	return oneLine(afterLabel(ps.s.blockText(first)))
}

// meta reads a Metadata item; other items outside topics are ignored.
func (ps *parser) meta(lab field, val string, first ast.Node, off int) error {
	switch lab {
	case fTopic:
		ps.p.Topic = ps.inline(first)
	case fBreadth, fDepth:
		n, err := number(val)
		if err != nil || n < 0 {
			name := fieldNames[lab]
			return ps.errorf(off, "%s %q is not a whole number; write \"- %s: N\" under ## Metadata", name, val, strings.ToUpper(name[:1])+name[1:])
		}
		if lab == fBreadth {
			ps.p.Breadth, ps.p.breadthLine = n, ps.s.line(off)
		} else {
			ps.p.Depth, ps.p.depthLine = n, ps.s.line(off)
		}
	}
	return nil
}

// resolve fills in what the file left implicit: parents named in another
// case, "None" parents of roots, and depths missing from headings.
func (ps *parser) resolve() {
	byLower := make(map[string]*Topic, len(ps.p.Topics))
	for _, t := range ps.p.Topics {
		if k := strings.ToLower(t.Name); byLower[k] == nil {
			byLower[k] = t
		}
	}
	for _, t := range ps.p.Topics {
		if t.Parent == "" {
			continue
		}
		if pt := byLower[strings.ToLower(t.Parent)]; pt != nil {
			t.Parent = pt.Name
		} else if isNone(t.Parent) {
			t.Parent = ""
		}
	}
	// Parents come before children in any sensible plan, but a few passes
	// cover one that lists them out of order.
	for pass := 0; pass < 4; pass++ {
		for _, t := range ps.p.Topics {
			if t.Depth >= 0 {
				continue
			}
			if t.Parent == "" {
				t.Depth = 0
			} else if pt := byLower[strings.ToLower(t.Parent)]; pt != nil && pt.Depth >= 0 {
				t.Depth = pt.Depth + 1
			}
		}
	}
	for _, t := range ps.p.Topics {
		if t.Status == "" {
			t.Status = Pending
		}
	}
}

func isNone(s string) bool {
	switch strings.ToLower(s) {
	case "none", "n/a", "na", "-", "null", "root":
		return true
	}
	return false
}

// number reads the whole number that starts val, so that notes after it
// ("3 (three subtopics each)") do not matter.
func number(val string) (int, error) {
	if f := strings.Fields(val); len(f) > 0 {
		val = f[0]
	}
	return strconv.Atoi(val)
}

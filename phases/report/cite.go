package report

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// Kind is the form a citation is written in.
type Kind string

// The citation forms rgit's backends write.
const (
	Numbered Kind = "numbered" // [3] or [2, 5]: an entry of the "## Sources" list
	Local    Kind = "local"    // `path:start-end`: lines of a corpus file (the local researcher)
	URL      Kind = "url"      // a bare URL or <URL>
	Link     Kind = "link"     // [text](URL), or [text][ref] with a definition
)

// Citation is one citation in a report's body (the sources list itself is
// not cited; see Sources). Code blocks are never searched: a citation
// quoted inside code is data.
type Citation struct {
	Kind    Kind
	Text    string   // as a reader sees it: "[3]", "`a/b.go:10-20`", the URL, or "[label](URL)"
	Offset  int      // byte offset in the report where it starts
	Line    int      // 1-based line in the report
	Section []string // heading path, outermost first: ["Findings", "Key Mechanisms"]; shared by the citations under one heading, read only

	Number   int     // Numbered: the reference number
	Source   *Source // Numbered: its entry in the sources list; nil when dangling
	Path     string  // Local: the file as cited
	From, To int     // Local: the line range
	URL      string  // URL and Link: the destination as written
	Label    string  // Link: the link text

	span [2]int // bytes a rewriter replaces: the number, the code span, the URL
}

// Key names what a citation points at, so citations of one source compare
// equal across sessions whose numbering differs: the URL of a link or of
// the cited source, a local file's path (line ranges are passages of one
// source), else the source entry's text.
func (c Citation) Key() string {
	switch {
	case c.Kind == Local:
		return c.Path
	case c.Kind == URL || c.Kind == Link:
		return c.URL
	case c.Source != nil:
		return c.Source.Key()
	}
	return "[" + strconv.Itoa(c.Number) + "]"
}

// localRE matches a local citation's code span (the local researcher's
// own pattern).
var localRE = regexp.MustCompile(`^([^\s:` + "`" + `]+):([0-9]+)-([0-9]+)$`)

// numberSpans returns the byte ranges of the reference numbers in b, in
// order: each number of a group is a citation of its own. A group is
// "[3]" or "[2, 5]": the regexp \[(\d{1,4}(?:\s*[,;]\s*\d{1,4})*)\], which
// this matches by hand, as a report has thousands of runs to search.
func numberSpans(b []byte) [][2]int {
	var out [][2]int
	for i := 0; i < len(b); i++ {
		if b[i] != '[' {
			continue
		}
		if end, ok := numberGroup(b, i+1); ok {
			for j := i + 1; j < end; {
				k := j
				for k < end && isDigit(b[k]) {
					k++
				}
				if k > j {
					out = append(out, [2]int{j, k})
					j = k
				} else {
					j++
				}
			}
			i = end // the ']'
		}
	}
	return out
}

// numberGroup matches a group's numbers and separators from b[i] to a
// "]" and returns the index of that "]". A number is 1 to 4 digits: a
// fifth fails the group, as \d{1,4} has nothing to give back.
func numberGroup(b []byte, i int) (int, bool) {
	for {
		n := 0
		for i < len(b) && isDigit(b[i]) && n < 5 {
			i, n = i+1, n+1
		}
		if n == 0 || n > 4 {
			return 0, false
		}
		if i < len(b) && b[i] == ']' {
			return i, true
		}
		for i < len(b) && isRESpace(b[i]) {
			i++
		}
		if i >= len(b) || (b[i] != ',' && b[i] != ';') {
			return 0, false
		}
		i++
		for i < len(b) && isRESpace(b[i]) {
			i++
		}
	}
}

// isRESpace is the regexp class \s: ASCII white space without \v.
func isRESpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// parseLocal reads "path:start-end"; ok is false for anything else,
// including a reversed or zero range.
func parseLocal(s string) (path string, from, to int, ok bool) {
	m := localRE.FindStringSubmatch(s)
	if m == nil {
		return "", 0, 0, false
	}
	from, err1 := strconv.Atoi(m[2])
	to, err2 := strconv.Atoi(m[3])
	if err1 != nil || err2 != nil || from < 1 || to < from {
		return "", 0, 0, false
	}
	return m[1], from, to, true
}

// codeSpanText returns a code span's content and the byte range of the
// whole span, backticks included.
func codeSpanText(n *ast.CodeSpan, src []byte) (string, [2]int, bool) {
	first, ok := n.FirstChild().(*ast.Text)
	last, ok2 := n.LastChild().(*ast.Text)
	if !ok || !ok2 {
		return "", [2]int{}, false
	}
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b.Write(t.Segment.Value(src))
		}
	}
	// The span's bytes: CommonMark strips one space of padding on each
	// side ("`` `x` ``"), then come the backticks.
	start, stop := first.Segment.Start, last.Segment.Stop
	if start > 1 && src[start-1] == ' ' && src[start-2] == '`' {
		start--
	}
	for start > 0 && src[start-1] == '`' {
		start--
	}
	if stop+1 < len(src) && src[stop] == ' ' && src[stop+1] == '`' {
		stop++
	}
	for stop < len(src) && src[stop] == '`' {
		stop++
	}
	return strings.TrimSpace(b.String()), [2]int{start, stop}, true
}

// textRuns groups a node's consecutive Text children whose bytes are
// adjacent in the source: goldmark splits "see [1]." into several Text
// nodes at the brackets, and a reference can only be found in the joined
// bytes. A run ends at a line break.
func textRuns(parent ast.Node) [][]*ast.Text {
	var runs [][]*ast.Text
	var cur []*ast.Text
	for c := parent.FirstChild(); c != nil; c = c.NextSibling() {
		t, ok := c.(*ast.Text)
		if !ok {
			if len(cur) > 0 {
				runs, cur = append(runs, cur), nil
			}
			continue
		}
		if n := len(cur); n > 0 && (cur[n-1].Segment.Stop != t.Segment.Start || cur[n-1].SoftLineBreak() || cur[n-1].HardLineBreak()) {
			runs, cur = append(runs, cur), nil
		}
		cur = append(cur, t)
	}
	if len(cur) > 0 {
		runs = append(runs, cur)
	}
	return runs
}

// runSpan is the source range of a run of adjacent Text nodes.
func runSpan(run []*ast.Text) (start, stop int) {
	return run[0].Segment.Start, run[len(run)-1].Segment.Stop
}

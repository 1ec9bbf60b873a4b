package report

import (
	"regexp"
	"slices"
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
	sc.doc.Sources = slices.Grow(sc.doc.Sources, list.ChildCount())
	for i, it := 0, list.FirstChild(); it != nil; i, it = i+1, it.NextSibling() {
		text := sc.plainText(it)
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

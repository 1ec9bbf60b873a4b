package report

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// section is the text under one heading, up to the next heading of any
// level, so a change shows in the deepest section that has it.
type section struct {
	Path  []string // heading path, outermost first; empty for text before the first heading
	Key   string   // the path joined, made unique within the report
	Line  int      // 1-based report line of the body's first line
	Lines []string // the body, without the heading
}

// splitSections cuts a report into its sections in document order.
func splitSections(md []byte) []section {
	lines := strings.Split(strings.TrimSuffix(string(md), "\n"), "\n")
	if len(md) == 0 {
		lines = nil
	}
	idx := newLineIndex(md)
	var heads headingTracker
	type cut struct {
		path       []string
		head, body int // 0-based line of the heading and of the body
	}
	cuts := []cut{{path: nil, head: 0, body: 0}}
	root := parseMarkdown(md)
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		if !ok || h.Lines().Len() == 0 {
			continue
		}
		heads.enter(h.Level, plainText(h, md))
		line := idx.line(h.Lines().At(0).Start) - 1
		body := line + 1
		if body < len(lines) && isSetextUnderline(lines[body]) && !strings.HasPrefix(strings.TrimSpace(lines[line]), "#") {
			body++
		}
		cuts = append(cuts, cut{path: heads.current(), head: line, body: body})
	}
	var out []section
	seen := map[string]int{}
	for i, c := range cuts {
		stop := len(lines)
		if i+1 < len(cuts) {
			stop = cuts[i+1].head
		}
		if c.body > stop {
			c.body = stop
		}
		body := lines[c.body:stop]
		if i == 0 && len(strings.TrimSpace(strings.Join(body, ""))) == 0 {
			continue // no text before the first heading
		}
		key := strings.Join(c.path, " > ")
		if seen[key]++; seen[key] > 1 {
			key += " (" + strconv.Itoa(seen[key]) + ")"
		}
		out = append(out, section{Path: c.path, Key: key, Line: c.body + 1, Lines: body})
	}
	return out
}

// isSetextUnderline says whether a line underlines a setext heading.
func isSetextUnderline(l string) bool {
	t := strings.TrimSpace(l)
	return t != "" && (strings.Trim(t, "=") == "" || strings.Trim(t, "-") == "")
}

package report

import (
	"slices"
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

// compareSections matches sections by heading path. The result follows
// B's order, with each section only in A placed where A had it.
func compareSections(a, b []byte) []SectionDiff {
	as, bs := splitSections(a), splitSections(b)
	inA := map[string]section{}
	for _, s := range as {
		inA[s.Key] = s
	}
	inB := map[string]bool{}
	for _, s := range bs {
		inB[s.Key] = true
	}
	out := []SectionDiff{}
	nextA := 0
	var pendingB []SectionDiff
	// Before each section both have: A's sections only A has, then B's
	// only B has, the way a diff shows removals before additions.
	flush := func(upTo string) {
		for ; nextA < len(as) && (upTo == "" || as[nextA].Key != upTo); nextA++ {
			if s := as[nextA]; !inB[s.Key] {
				out = append(out, SectionDiff{Path: orEmpty(s.Path), Status: SectionOnlyA, Removed: len(s.Lines), Hunks: []Hunk{}})
			}
		}
		out, pendingB = append(out, pendingB...), nil
	}
	for _, s := range bs {
		old, ok := inA[s.Key]
		if !ok {
			pendingB = append(pendingB, SectionDiff{Path: orEmpty(s.Path), Status: SectionOnlyB, Added: len(s.Lines), Hunks: []Hunk{}})
			continue
		}
		flush(s.Key)
		if nextA < len(as) {
			nextA++
		}
		sd := SectionDiff{Path: orEmpty(s.Path), Status: SectionUnchanged, Hunks: []Hunk{}}
		if !slices.Equal(old.Lines, s.Lines) {
			sd.Status = SectionChanged
			sd.Hunks, sd.Added, sd.Removed = unifiedHunks(old.Lines, s.Lines, old.Line, s.Line)
		}
		out = append(out, sd)
	}
	flush("")
	return out
}

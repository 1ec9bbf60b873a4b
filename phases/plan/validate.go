package plan

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Validate checks the plan's semantics: metadata present, every status
// known, every parent present and one level up, no topic deeper than Depth,
// at most Breadth roots and Breadth children per topic, unique names (case
// does not distinguish them) and no cycles. It returns the first problem
// found (metadata, then names, then each topic in plan order) as an *Error
// naming file, line and fix.
func (p *Plan) Validate(file string) error {
	fail := func(line int, format string, args ...any) error {
		return &Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case strings.TrimSpace(p.Topic) == "":
		return fail(p.metaLine, "missing topic; add \"- Topic: <research question>\" under ## Metadata")
	case p.Breadth < 1:
		return fail(or(p.breadthLine, p.metaLine), "breadth must be at least 1; add \"- Breadth: N\" under ## Metadata")
	case p.Depth < 0:
		return fail(or(p.depthLine, p.metaLine), "depth must be 0 or more; add \"- Depth: N\" under ## Metadata")
	case len(p.Topics) == 0:
		return fail(0, "no topics; add at least one \"### <Name> (Depth: 0)\" under ## Topics")
	}
	byName := make(map[string]*Topic, len(p.Topics))
	byLower := make(map[string]*Topic, len(p.Topics))
	for _, t := range p.Topics {
		if err := checkName(t.Name); err != "" {
			return fail(t.Line, "topic name %q %s", t.Name, err)
		}
		k := strings.ToLower(t.Name)
		if prev := byLower[k]; prev != nil {
			return fail(t.Line, "duplicate topic %q (first at line %d); rename one", t.Name, prev.Line)
		}
		byName[t.Name], byLower[k] = t, t
	}
	roots := 0
	children := make(map[string]int, len(p.Topics))
	for _, t := range p.Topics {
		if !t.Status.Valid() {
			return fail(or(t.statusLine, t.Line), "unknown status %q of topic %q; use Pending, In Progress, In Review or Complete", t.Status, t.Name)
		}
		if t.Depth < 0 {
			return fail(t.Line, "topic %q has no depth; write its heading as \"### %s (Depth: N)\"", t.Name, t.Name)
		}
		if t.Depth > p.Depth {
			return fail(t.Line, "topic %q has depth %d, deeper than the plan's Depth %d; remove it or raise Depth", t.Name, t.Depth, p.Depth)
		}
		if t.Depth == 0 {
			if t.Parent != "" {
				return fail(or(t.parentLine, t.Line), "topic %q has depth 0 but parent %q; remove the Parent item or set its depth to the parent's plus 1", t.Name, t.Parent)
			}
			if roots++; roots > p.Breadth {
				return fail(t.Line, "topic %q is depth-0 topic number %d, more than Breadth %d; remove it or raise Breadth", t.Name, roots, p.Breadth)
			}
			continue
		}
		if t.Parent == "" {
			return fail(t.Line, "topic %q has depth %d but no parent; add \"- Parent: <topic name>\"", t.Name, t.Depth)
		}
		parent := byName[t.Parent]
		if parent == nil {
			return fail(or(t.parentLine, t.Line), "topic %q names unknown parent %q; use the exact name of a topic in this plan", t.Name, t.Parent)
		}
		if path := cycle(byName, t, p.Depth+2); path != "" {
			return fail(or(t.parentLine, t.Line), "topic %q is its own ancestor (%s); fix its Parent", t.Name, path)
		}
		if t.Depth != parent.Depth+1 {
			return fail(t.Line, "topic %q has depth %d but its parent %q has depth %d; set it to %d", t.Name, t.Depth, parent.Name, parent.Depth, parent.Depth+1)
		}
		if children[t.Parent]++; children[t.Parent] > p.Breadth {
			return fail(t.Line, "topic %q is child number %d of %q, more than Breadth %d; remove it or raise Breadth", t.Name, children[t.Parent], t.Parent, p.Breadth)
		}
	}
	return nil
}

// cycle follows t's parents for at most limit steps and returns the path
// when it comes back to t, or "".
func cycle(byName map[string]*Topic, t *Topic, limit int) string {
	steps := 0
	for cur := byName[t.Parent]; cur != nil && steps < limit; cur = byName[cur.Parent] {
		steps++
		if cur == t {
			// Only now, on the error path, spell out the loop.
			path := []string{t.Name}
			for c := byName[t.Parent]; len(path) <= steps; c = byName[c.Parent] {
				path = append(path, c.Name)
			}
			return strings.Join(path, " -> ")
		}
	}
	return ""
}

// checkName returns why name cannot be a topic name, or "".
func checkName(name string) string {
	switch {
	case strings.TrimSpace(name) == "":
		return "is empty; give the topic a name"
	case name != strings.TrimSpace(name) || strings.Contains(name, "  ") || strings.ContainsAny(name, "\t\n\r\v\f\u0085\u00a0"):
		return "has extra spaces; write it on one line with single spaces"
	case !utf8.ValidString(name):
		return "is not valid UTF-8; save the plan as UTF-8"
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return "contains a control character; remove it"
	}
	return ""
}

func or(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

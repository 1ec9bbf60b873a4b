// Package plan is the research plan: the tree of topics that rgit reads from
// and writes to research_plan.md, its validation, the breadth-first scheduler
// that picks the next phase, stable slugs for progress files, and the text
// and Mermaid views of the tree.
//
// rgit owns the plan's state: agents propose topics, but only this package
// changes statuses and adds subtopics, so the file on the branch is always a
// valid plan. Render writes the one canonical form, and Parse(Render(p))
// equals p for every valid plan.
//
// Parse walks goldmark's AST and accepts what people and agents really
// write: bold or italic labels, "-", "*" or "+" bullets, "(depth 1)" in any
// case, statuses such as "in-progress", names in square brackets, parents
// named in another case or "None" for roots, blank lines, trailing spaces,
// CRLF, "---" separators, and a heading under ## Topics without a depth when
// its items say what it is. Unknown list items under a topic (and plain
// paragraphs there) are kept in Topic.Extra and rendered back. Not kept:
// unknown Metadata items, sections other than Metadata and Topics, and the
// Completion Status counts, which Render recomputes.
package plan

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Status is a topic's place in the research loop.
type Status string

// The statuses a topic moves through: Pending -> In Progress -> In Review ->
// Complete (or back to In Progress when a review rejects it).
const (
	Pending    Status = "Pending"
	InProgress Status = "In Progress"
	InReview   Status = "In Review"
	Complete   Status = "Complete"
)

// Statuses lists the valid statuses in loop order.
var Statuses = []Status{Pending, InProgress, InReview, Complete}

// Valid reports whether s is one of the four canonical statuses.
func (s Status) Valid() bool {
	switch s {
	case Pending, InProgress, InReview, Complete:
		return true
	}
	return false
}

// Topic is one node of the research tree.
type Topic struct {
	Name        string
	Depth       int
	Status      Status
	Parent      string // "" for depth 0
	Description string
	Criteria    []string
	Extra       []string // unknown list items, kept verbatim and rendered back
	Line        int      // 1-based line of the heading in the parsed file (0 if built in code)

	// Lines of individual fields, so errors point at the item to fix.
	statusLine, parentLine int
}

// Plan is a parsed research_plan.md.
type Plan struct {
	Topic   string // the session's original question
	Breadth int    // most topics at depth 0, and most children of one topic
	Depth   int    // deepest allowed topic depth (roots are depth 0)
	Topics  []*Topic

	// Lines of metadata items, for error messages.
	metaLine, breadthLine, depthLine int
}

// Error is a malformed or invalid plan, located in its file. Msg names the
// fix.
type Error struct {
	File string
	Line int
	Msg  string
}

// Error formats as "file:line: msg", or "file: msg" without a line.
func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Find returns the topic named name, or nil.
func (p *Plan) Find(name string) *Topic {
	for _, t := range p.Topics {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// Children returns the topics whose parent is name, in plan order; name ""
// returns the depth-0 roots.
func (p *Plan) Children(name string) []*Topic {
	var out []*Topic
	for _, t := range p.Topics {
		if t.Parent == name && (name != "" || t.Depth == 0) {
			out = append(out, t)
		}
	}
	return out
}

// Ancestors returns t's ancestors, root first, not including t. It stops at
// a missing parent or a cycle.
func Ancestors(p *Plan, t *Topic) []*Topic {
	var out []*Topic
	for cur := t; cur.Parent != "" && len(out) <= len(p.Topics); {
		parent := p.Find(cur.Parent)
		if parent == nil || parent == t {
			break
		}
		out = append(out, parent)
		cur = parent
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// Counts tallies topics by status, for progress.md and the Completion Status
// section.
type Counts struct{ Total, Complete, InReview, InProgress, Pending int }

// Counts tallies the plan's topics by status. Topics with an invalid status
// count only toward Total.
func (p *Plan) Counts() Counts {
	if p == nil { // a council session has no plan
		return Counts{}
	}
	c := Counts{Total: len(p.Topics)}
	for _, t := range p.Topics {
		switch t.Status {
		case Complete:
			c.Complete++
		case InReview:
			c.InReview++
		case InProgress:
			c.InProgress++
		case Pending:
			c.Pending++
		}
	}
	return c
}

// ParseStatus reads a status the way people write it: any case, words
// separated by spaces, hyphens or underscores ("in-progress", "IN
// PROGRESS"), decoration such as "✅" or "(50%)" ignored, and "Completed" or
// "Done" for Complete. ok is false for anything else.
func ParseStatus(s string) (st Status, ok bool) {
	if st := Status(s); st.Valid() {
		return st, true
	}
	// Words only: hyphens, underscores, emoji and "(50%)" do not matter.
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
	switch strings.Join(f, " ") {
	case "pending", "todo", "to do", "not started":
		return Pending, true
	case "in progress", "inprogress", "started":
		return InProgress, true
	case "in review", "inreview", "reviewing", "under review":
		return InReview, true
	case "complete", "completed", "done":
		return Complete, true
	}
	return Status(s), false
}

func quote(s string) string { return strconv.Quote(s) }
func itoa(n int) string     { return strconv.Itoa(n) }

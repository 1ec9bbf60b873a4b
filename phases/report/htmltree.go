package report

import (
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/rgit-dev/rgit/phases/plan"
)

// treeNode is one topic of the page's topic tree.
type treeNode struct {
	Name      string
	Status    string // as the plan says it
	Class     string // CSS class of the status
	Href      string // "#heading-id" of the topic's section in the report, or ""
	Exhausted bool
	Children  []treeNode
}

// statusClass maps a status to its CSS class; an unknown status gets its
// own, so it is visible rather than passed off as Pending.
func statusClass(s plan.Status) string {
	switch s {
	case plan.Complete:
		return "status-complete"
	case plan.InReview:
		return "status-inreview"
	case plan.InProgress:
		return "status-inprogress"
	case plan.Pending:
		return "status-pending"
	}
	return "status-unknown"
}

// topicTree builds the nested topic tree of a plan, roots first, children
// in plan order. Each topic is shown once even when a salvaged plan loops
// through its parents. anchors maps a lowercased heading text to its ID.
func topicTree(p *plan.Plan, exhausted []string, anchors map[string]string) []treeNode {
	if p == nil {
		return nil
	}
	kids := map[string][]*plan.Topic{}
	for _, t := range p.Topics {
		if t.Name != t.Parent {
			kids[t.Parent] = append(kids[t.Parent], t)
		}
	}
	shown := map[*plan.Topic]bool{}
	var build func(parent string) []treeNode
	build = func(parent string) []treeNode {
		var out []treeNode
		for _, t := range kids[parent] {
			if shown[t] {
				continue
			}
			shown[t] = true
			n := treeNode{Name: t.Name, Status: string(t.Status), Class: statusClass(t.Status),
				Exhausted: slices.Contains(exhausted, t.Name), Children: build(t.Name)}
			if id, ok := anchors[strings.ToLower(t.Name)]; ok {
				n.Href = "#" + id
			}
			out = append(out, n)
		}
		return out
	}
	roots := build("")
	// Topics whose parent is missing would be lost: show them as roots.
	for _, t := range p.Topics {
		if !shown[t] {
			roots = append(roots, build(t.Parent)...)
		}
	}
	return roots
}

// headingAnchors maps each heading's lowercased text to the ID goldmark
// gave it; the first heading of a text wins.
func headingAnchors(root ast.Node, src []byte) map[string]string {
	out := map[string]string{}
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		if v, ok := h.AttributeString("id"); ok {
			if id, ok := v.([]byte); ok {
				key := strings.ToLower(plainText(h, src))
				if _, dup := out[key]; !dup {
					out[key] = string(id)
				}
			}
		}
		return ast.WalkSkipChildren, nil
	})
	return out
}

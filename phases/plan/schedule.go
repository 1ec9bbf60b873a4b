package plan

import (
	"slices"
	"strings"
)

// StepKind is what the loop does next.
type StepKind int

// The loop's next move.
const (
	StepResearch StepKind = iota // research Step.Topic
	StepReview                   // review Step.Topic
	StepDone                     // no topic left: run the final cycle
)

// Step is the scheduler's decision.
type Step struct {
	Kind  StepKind
	Topic *Topic // nil for StepDone
}

// Next decides the loop's next phase. A topic In Review is reviewed first,
// so a research result never waits behind other work; otherwise the Pending
// or In Progress topic of lowest depth, first in plan order, is researched;
// otherwise research is done. Topics for which skip returns true (for
// example exhausted ones) are passed over; skip may be nil. One pass over the
// topics, no allocation.
func Next(p *Plan, skip func(*Topic) bool) Step {
	var best *Topic
	for _, t := range p.Topics {
		if skip != nil && skip(t) {
			continue
		}
		switch t.Status {
		case InReview:
			return Step{Kind: StepReview, Topic: t}
		case Pending, InProgress:
			if best == nil || t.Depth < best.Depth {
				best = t
			}
		}
	}
	if best == nil {
		return Step{Kind: StepDone}
	}
	return Step{Kind: StepResearch, Topic: best}
}

// Proposal is a subtopic an agent suggests.
type Proposal struct {
	Name, Description string
	Criteria          []string
}

// Dropped is a proposal AddSubtopics refused, with the reason.
type Dropped struct{ Name, Reason string }

// AddSubtopics adds proposals under parent ("" = depth-0 roots), enforcing
// breadth, depth and unique names; new topics are Pending and inserted after
// the parent's existing subtree in plan order. Proposals are untrusted agent
// output: names are normalised like parsed ones and descriptions and
// criteria are folded onto one line so they cannot add markdown structure.
// Every proposal not added is in dropped with its reason.
func (p *Plan) AddSubtopics(parent string, props []Proposal) (added []*Topic, dropped []Dropped) {
	depth := 0
	if parent != "" {
		pt := p.Find(parent)
		if pt == nil {
			for _, pr := range props {
				dropped = append(dropped, Dropped{pr.Name, "parent topic " + quote(parent) + " is not in the plan"})
			}
			return nil, dropped
		}
		depth = pt.Depth + 1
	}
	have := 0
	for _, t := range p.Topics {
		if t.Parent == parent && t.Depth == depth {
			have++
		}
	}
	for _, pr := range props {
		name := cleanName(pr.Name)
		switch {
		case depth > p.Depth:
			dropped = append(dropped, Dropped{pr.Name, "depth " + itoa(depth) + " is past the plan's Depth " + itoa(p.Depth)})
		case checkName(name) != "":
			dropped = append(dropped, Dropped{pr.Name, "name " + checkName(name)})
		case p.taken(name, added):
			dropped = append(dropped, Dropped{pr.Name, "a topic named " + quote(name) + " already exists"})
		case have >= p.Breadth:
			dropped = append(dropped, Dropped{pr.Name, full(parent, p.Breadth)})
		default:
			t := &Topic{Name: name, Depth: depth, Status: Pending, Parent: parent, Description: oneLine(pr.Description)}
			for _, c := range pr.Criteria {
				if c = oneLine(c); c != "" {
					t.Criteria = append(t.Criteria, c)
				}
			}
			have++
			added = append(added, t)
		}
	}
	if len(added) > 0 {
		at := p.subtreeEnd(parent)
		p.Topics = slices.Insert(p.Topics, at, added...)
	}
	return added, dropped
}

// taken reports whether name, in any case, is already a topic of the plan
// or of batch. A scan rather than an index: the loop calls this with a
// handful of proposals, and EqualFold rejects most names on length alone.
func (p *Plan) taken(name string, batch []*Topic) bool {
	for _, t := range p.Topics {
		if strings.EqualFold(t.Name, name) {
			return true
		}
	}
	for _, t := range batch {
		if strings.EqualFold(t.Name, name) {
			return true
		}
	}
	return false
}

// subtreeEnd returns the index after the last topic of parent's subtree in
// plan order (the end of the plan for ""), where its new children go.
func (p *Plan) subtreeEnd(parent string) int {
	if parent == "" {
		return len(p.Topics)
	}
	// Names in the subtree, grown as descendants are met: a plan lists a
	// parent before its children, so one pass finds them all.
	in := map[string]bool{parent: true}
	end := 0
	for i, t := range p.Topics {
		if t.Name == parent {
			end = i + 1
		} else if in[t.Parent] && t.Parent != "" {
			in[t.Name] = true
			end = i + 1
		}
	}
	return end
}

// full says why a proposal over the breadth limit was dropped.
func full(parent string, breadth int) string {
	if parent == "" {
		return "the plan already has Breadth " + itoa(breadth) + " depth-0 topics"
	}
	return quote(parent) + " already has Breadth " + itoa(breadth) + " subtopics"
}

// cleanName normalises a proposed name: whitespace folded, and the square
// brackets or emphasis agents wrap names in removed ("**[Name]**").
func cleanName(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	for {
		before := s
		s = unbracket(s)
		if len(s) >= 2 && strings.IndexByte("*_`", s[0]) >= 0 && s[len(s)-1] == s[0] {
			s = strings.TrimSpace(s[1 : len(s)-1])
		}
		if s == before {
			return s
		}
	}
}

// oneLine folds whitespace, newlines included, to single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

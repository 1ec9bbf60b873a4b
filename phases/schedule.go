package phases

import (
	"strings"

	"github.com/rgit-dev/rgit/phases/plan"
)

// scheduler decides which topic steps may start while others are in
// flight (--jobs). It only decides: the stage loop (schedule_run.go) starts
// the calls and applies their results. With nothing in flight its first
// choice is plan.Next's, so --jobs 1 runs exactly the sequential order.
//
// A step may start when:
//   - its topic has no call in flight and is not exhausted;
//   - review: the topic is In Review (reviews come first, in plan order);
//   - research: the topic is Pending or In Progress, its parent is settled
//     (Complete or exhausted), and, when it may still add subtopics, every
//     topic before it in breadth-first order that may add subtopics has
//     been researched. Agents propose subtopics knowing the whole plan
//     (Brief.Existing), so this keeps which topic gets a contested subtopic
//     name, and so the final plan, the same for any --jobs;
//   - research also needs an iteration left after those reserved by the
//     research calls in flight, which the caller says with canResearch.
type scheduler struct {
	jobs     int
	inflight map[string]Phase // topic name -> the phase of its call in flight
	reserved int              // iterations held by research calls in flight
}

func newScheduler(jobs int) *scheduler {
	return &scheduler{jobs: max(1, jobs), inflight: map[string]Phase{}}
}

// free says whether another call may start.
func (s *scheduler) free() bool { return len(s.inflight) < s.jobs }

// busy is the number of calls in flight.
func (s *scheduler) busy() int { return len(s.inflight) }

// start records a step's call as in flight; research reserves an iteration.
func (s *scheduler) start(phase Phase, topic string) {
	s.inflight[topic] = phase
	if phase == PhaseResearch {
		s.reserved++
	}
}

// finish records the end of a topic's call, releasing its reservation.
func (s *scheduler) finish(topic string) {
	if s.inflight[topic] == PhaseResearch {
		s.reserved--
	}
	delete(s.inflight, topic)
}

// next is the best step that may start now, if any. exhausted says which
// topics were given up; depth and breadth are the session's. Two passes
// over the plan and two small maps: it runs once per started call.
func (s *scheduler) next(p *plan.Plan, exhausted func(string) bool, depth, breadth int, canResearch bool) (plan.Step, bool) {
	if !s.free() || p == nil {
		return plan.Step{}, false
	}
	status := make(map[string]plan.Status, len(p.Topics))
	children := make(map[string]int, len(p.Topics))
	for _, t := range p.Topics {
		status[strings.ToLower(t.Name)] = t.Status
		if t.Parent != "" {
			children[strings.ToLower(t.Parent)]++
		}
	}
	subdivides := func(t *plan.Topic) bool {
		return t.Depth < depth && children[strings.ToLower(t.Name)] < breadth
	}
	// block is the first topic in breadth-first order that may add
	// subtopics and is not yet researched: later ones that may add
	// subtopics wait for it.
	var block *plan.Topic
	blockAt := -1
	for i, t := range p.Topics {
		if exhausted(t.Name) {
			continue
		}
		phase, flying := s.inflight[t.Name]
		if t.Status == plan.InReview && !flying {
			return plan.Step{Kind: plan.StepReview, Topic: t}, true
		}
		if subdivides(t) && (t.Status == plan.Pending || phase == PhaseResearch) && (block == nil || t.Depth < block.Depth) {
			block, blockAt = t, i
		}
	}
	if !canResearch {
		return plan.Step{}, false
	}
	var best *plan.Topic
	for i, t := range p.Topics {
		if _, flying := s.inflight[t.Name]; flying || exhausted(t.Name) || (t.Status != plan.Pending && t.Status != plan.InProgress) {
			continue
		}
		if t.Parent != "" {
			if ps, ok := status[strings.ToLower(t.Parent)]; ok && ps != plan.Complete && !exhausted(t.Parent) {
				continue // its parent is not settled
			}
		}
		if block != nil && t != block && subdivides(t) && (block.Depth < t.Depth || (block.Depth == t.Depth && blockAt < i)) {
			continue
		}
		if best == nil || t.Depth < best.Depth {
			best = t
		}
	}
	if best == nil {
		return plan.Step{}, false
	}
	return plan.Step{Kind: plan.StepResearch, Topic: best}, true
}

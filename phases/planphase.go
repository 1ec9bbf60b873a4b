package phases

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/phases/plan"
)

// planPhase asks the agent for depth-0 topics; rgit writes the plan. If
// every agent fails, the question itself becomes the only topic.
func (r *run) planPhase(ctx context.Context) error {
	start := r.clock.Now()
	out := r.lay.Plan()
	s := r.state
	c := call{phase: PhasePlan, template: "initial_plan.md", role: RoleResearch, output: out, textIsOutput: true,
		brief: agents.Brief{Question: s.OriginalTopic, Breadth: s.Breadth, Depth: s.Depth, Corpus: s.Corpus}}
	var proposals []plan.Proposal
	var suggested string // the planner's profile for the question (profilepropose.go)
	c.gate = func(agents.Result) error {
		data, err := os.ReadFile(out)
		if err != nil {
			return fmt.Errorf("plan phase wrote no %s", layout.PlanFile)
		}
		proposals, err = proposedRoots(out, data)
		suggested = suggestedProfile(data)
		return err
	}
	o, err := r.absorb(PhasePlan, r.calls.run(ctx, c, r.inputs(RoleResearch)))
	if err == nil {
		if perr := r.considerProfile(suggested); perr != nil {
			return perr
		}
	}
	p := &plan.Plan{Topic: s.OriginalTopic, Breadth: s.Breadth, Depth: s.Depth}
	if errors.Is(err, errExhausted) {
		r.warn(fmt.Sprintf("planning failed on every agent (%v); researching the question as a single topic", err))
		proposals = []plan.Proposal{{Name: truncateName(s.OriginalTopic), Description: s.OriginalTopic,
			Criteria: []string{"Answers the question with cited sources"}}}
	} else if err != nil {
		return err
	}
	_, dropped := p.AddSubtopics("", proposals)
	for _, d := range dropped {
		r.warn(fmt.Sprintf("plan: dropped topic %q: %s", d.Name, d.Reason))
	}
	r.plan = p
	s.Slugs = plan.Slugs(p, s.Slugs)
	s.Stage = StageResearch
	hash, err := r.commit(ctx, record{phase: PhasePlan, summary: fmt.Sprintf("plan: %d topics for %q", len(p.Topics), s.OriginalTopic),
		body: "Topics:\n" + mdList(names(p.Topics)), agent: o.agent, model: o.model, usage: o.usage, duration: o.elapsed})
	if err != nil {
		return err
	}
	r.done(PhasePlan, "", o, hash, start)
	return nil
}

// proposedRoots reads the agent's plan leniently and keeps its depth-0
// topics; rgit owns statuses, so theirs are ignored.
func proposedRoots(file string, data []byte) ([]plan.Proposal, error) {
	p, err := plan.Parse(file, data)
	if err != nil {
		var pe *plan.Error
		if !errors.As(err, &pe) || p == nil {
			return nil, err
		}
	}
	var out []plan.Proposal
	for _, t := range p.Topics {
		if t.Depth == 0 {
			out = append(out, plan.Proposal{Name: t.Name, Description: t.Description, Criteria: t.Criteria})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("research_plan.md has no depth-0 topics (### Name (Depth: 0))")
	}
	return out, nil
}

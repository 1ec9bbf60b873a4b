package phases

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/phases/plan"
)

// loop runs phases until the session is complete. Each step is one agent
// phase and one commit, so a kill between steps loses nothing and a kill
// inside a step only repeats that step.
func (r *run) loop(ctx context.Context) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		var err error
		switch r.state.Stage {
		case StagePlan:
			err = r.planPhase(ctx)
		case StageResearch:
			err = r.researchStep(ctx)
		case StageSynthesize:
			err = r.synthesize(ctx)
		case StageFinalReview:
			err = r.finalReview(ctx)
		case StageRevise:
			err = r.revise(ctx)
		case StageComplete:
			return r.finish(ctx)
		default:
			return badInput("start a new session", "state.json: unknown stage %q", r.state.Stage)
		}
		if err != nil {
			return err
		}
	}
}

// planPhase asks the agent for depth-0 topics; rgit writes the plan.
func (r *run) planPhase(ctx context.Context) error {
	start := time.Now()
	out := filepath.Join(r.ws, "research_plan.md")
	c := call{phase: agents.PhasePlan, template: "initial_plan.md", role: "model", output: out, textIsOutput: true,
		brief: agents.Brief{Question: r.state.OriginalTopic, Breadth: r.state.Breadth, Depth: r.state.Depth, Corpus: r.state.Corpus}}
	var proposals []plan.Proposal
	c.gate = func(agents.Result) error {
		data, err := os.ReadFile(out)
		if err != nil {
			return fmt.Errorf("plan phase wrote no research_plan.md")
		}
		proposals, err = proposedRoots(out, data)
		return err
	}
	o, err := r.runCall(ctx, c)
	p := &plan.Plan{Topic: r.state.OriginalTopic, Breadth: r.state.Breadth, Depth: r.state.Depth}
	if errors.Is(err, errExhausted) {
		r.warn(fmt.Sprintf("planning failed on every agent (%v); researching the question as a single topic", err))
		proposals = []plan.Proposal{{Name: truncateName(r.state.OriginalTopic), Description: r.state.OriginalTopic,
			Criteria: []string{"Answers the question with cited sources"}}}
	} else if err != nil {
		return err
	}
	_, dropped := p.AddSubtopics("", proposals)
	for _, d := range dropped {
		r.warn(fmt.Sprintf("plan: dropped topic %q: %s", d.Name, d.Reason))
	}
	r.plan = p
	r.state.Slugs = plan.Slugs(p, r.state.Slugs)
	r.state.Stage = StageResearch
	hash, err := r.commit(ctx, record{phase: "plan", summary: fmt.Sprintf("plan: %d topics for %q", len(p.Topics), r.state.OriginalTopic),
		body: "Topics:\n" + mdList(names(p.Topics)), agent: o.agent, model: o.model, usage: o.usage, duration: o.elapsed})
	if err != nil {
		return err
	}
	r.done("plan", "", o, hash, start)
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

func truncateName(s string) string {
	s = cleanLine(s)
	if len(s) > 80 {
		s = strings.TrimSpace(s[:80])
	}
	return s
}

func names(ts []*plan.Topic) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}

// researchStep runs the scheduler's next step, or moves to the final cycle.
func (r *run) researchStep(ctx context.Context) error {
	step := plan.Next(r.plan, func(t *plan.Topic) bool { return r.state.isExhausted(t.Name) })
	switch {
	case step.Kind == plan.StepReview:
		return r.reviewTopic(ctx, step.Topic)
	case step.Kind == plan.StepDone:
		r.state.Stage = StageSynthesize
		return nil
	case r.state.Iteration >= r.state.MaxIterations:
		r.state.LimitReached = true
		r.warn(fmt.Sprintf("iteration limit %d reached; synthesizing what there is", r.state.MaxIterations))
		r.state.Stage = StageSynthesize
		return nil
	case r.overBudget():
		r.state.LimitReached = true
		r.warn("time budget reached; synthesizing what there is")
		r.state.Stage = StageSynthesize
		return nil
	}
	return r.researchTopic(ctx, step.Topic)
}

// done reports a committed phase: its whole wall time since start and the
// part spent inside agent calls, so rgit's own overhead is visible.
func (r *run) done(phase, topic string, o outcome, hash string, start time.Time) {
	r.deps.Reporter.Report(Event{Kind: EventPhaseDone, Phase: phase, Topic: topic, Iteration: r.state.Iteration,
		Max: r.state.MaxIterations, Agent: o.model, Commit: hash, Duration: time.Since(start), AgentTime: o.usage.Duration})
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

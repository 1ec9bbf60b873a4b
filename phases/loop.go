package phases

import (
	"context"
	"fmt"
	"time"

	"github.com/rgit-dev/rgit/phases/plan"
)

// loop runs phases until the session is complete. Each step is one agent
// phase and one commit, so a kill between steps loses nothing and a kill
// inside a step only repeats that step. This is where the next phase is
// decided.
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
		default: // ParseState admits only known stages
			return fmt.Errorf("unknown stage %q", r.state.Stage)
		}
		if err != nil {
			return err
		}
	}
}

// researchStep asks the scheduler for the next topic step, or moves to the
// final cycle when no topic is left or a limit is reached.
func (r *run) researchStep(ctx context.Context) error {
	step := plan.Next(r.plan, func(t *plan.Topic) bool { return r.state.isExhausted(t.Name) })
	switch {
	case step.Kind == plan.StepReview:
		return r.reviewTopic(ctx, step.Topic)
	case step.Kind == plan.StepDone:
		r.state.Stage = StageSynthesize
		return nil
	case r.state.Iteration >= r.state.MaxIterations:
		r.stopAt(LimitIterations)
		return nil
	case r.overBudget():
		r.stopAt(LimitTime)
		return nil
	}
	return r.researchTopic(ctx, step.Topic)
}

// overBudget says whether the --time budget leaves only the synthesis
// reserve (seed 003: 1.5 minutes, or 30% of short budgets).
func (r *run) overBudget() bool {
	budget := r.state.timeBudget()
	if budget <= 0 {
		return false
	}
	reserve := 90 * time.Second
	if budget < 5*time.Minute {
		reserve = budget * 3 / 10
	}
	return since(r.clock, r.started) > budget-reserve
}

// done reports a committed phase: its whole wall time since start and the
// part spent inside agent calls, so rgit's own overhead is visible.
func (r *run) done(phase Phase, topic string, o outcome, hash string, start time.Time) {
	r.deps.Reporter.Report(Event{Kind: EventPhaseDone, Phase: phase, Topic: topic, Iteration: r.state.Iteration,
		Max: r.state.MaxIterations, Agent: o.model, Commit: hash, Duration: since(r.clock, start), AgentTime: o.usage.Duration,
		Tokens: o.usage.Tokens(), CostUSD: o.usage.CostUSD, Verdict: r.verdict.v, Gaps: r.verdict.gaps})
	r.verdict = lastVerdict{}
}

// inputs gathers what a call of role reads of the session.
func (r *run) inputs(role Role) callInputs {
	return r.state.inputs(role, r.baseVars(), r.recoveryNotes())
}

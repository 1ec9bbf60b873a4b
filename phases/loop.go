package phases

import (
	"context"
	"fmt"
	"time"
)

// loop runs phases until the session is complete. Each step is one agent
// phase and one commit, so a kill between steps loses nothing and a kill
// inside a step only repeats that step. This is where the next phase is
// decided; the research stage runs up to --jobs topic calls at once
// (schedule_run.go), still committing one phase at a time.
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
			err = r.researchStage(ctx)
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

// overBudget says whether the --time budget leaves only the synthesis
// reserve (seed 003: 1.5 minutes, or 30% of short budgets).
func (r *run) overBudget() bool {
	budget := r.state.timeBudget()
	if budget <= 0 {
		return false
	}
	return since(r.clock, r.started) > budget-synthesisReserve(budget)
}

// synthesisReserve is the part of a time budget kept for the final cycle.
func synthesisReserve(budget time.Duration) time.Duration {
	if budget < 5*time.Minute {
		return budget * 3 / 10
	}
	return 90 * time.Second
}

// done reports a committed phase: its whole wall time since start and the
// part spent inside agent calls, so rgit's own overhead is visible.
func (r *run) done(phase Phase, topic string, o outcome, hash string, start time.Time) {
	if topic == "" {
		r.path.serial(o.elapsed)
	}
	r.deps.Reporter.Report(Event{Kind: EventPhaseDone, Phase: phase, Topic: topic, Iteration: r.state.Iteration,
		Max: r.state.MaxIterations, Agent: o.model, Commit: hash, Duration: since(r.clock, start), AgentTime: o.usage.Duration,
		Tokens: o.usage.Tokens(), CostUSD: o.usage.CostUSD, Verdict: r.verdict.v, Gaps: r.verdict.gaps})
	r.verdict = lastVerdict{}
}

// inputs gathers what a call of role reads of the session.
func (r *run) inputs(role Role) callInputs {
	return r.state.inputs(role, r.baseVars(), r.recoveryNotes())
}

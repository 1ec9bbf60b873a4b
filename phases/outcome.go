package phases

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/phases/plan"
)

// Limit names what stopped a session's research before every topic was
// done; state.json records it, and the report's banner says it.
type Limit string

// The limits that stop research.
const (
	LimitIterations Limit = "iterations" // --max-iterations
	LimitTime       Limit = "time"       // --time
)

// ResearchFailedError: no topic was accepted, so there is nothing to
// report. Nothing was merged; the session stays resumable and a resume
// researches the failed topics again.
type ResearchFailedError struct {
	Name      string
	Exhausted int    // topics every agent failed on
	Limit     Limit  // the limit that stopped research first, if any
	Agent     string // the agent of the last failed attempt
	LastError string // its error, redacted
}

func (e *ResearchFailedError) Error() string {
	var b strings.Builder
	switch {
	case e.Limit == LimitTime:
		b.WriteString("the time budget ran out before any topic was accepted")
	case e.Limit == LimitIterations:
		b.WriteString("the iteration limit was reached before any topic was accepted")
	case e.Limit.isBudget():
		fmt.Fprintf(&b, "the %s budget ran out before any topic was accepted", strings.TrimSuffix(string(e.Limit), "s"))
	default:
		fmt.Fprintf(&b, "research failed: no topic was accepted (%d exhausted on every agent)", e.Exhausted)
	}
	if e.Agent != "" && e.LastError != "" {
		fmt.Fprintf(&b, "; %s failed last: %s", e.Agent, e.LastError)
	}
	b.WriteString("; nothing was merged")
	return b.String()
}

// Hint says how to go on.
func (e *ResearchFailedError) Hint() string {
	switch e.Limit {
	case LimitTime:
		return fmt.Sprintf("resume with a longer budget: rgit research --name %s --resume --time MINUTES", e.Name)
	case LimitIterations:
		return fmt.Sprintf("resume with more iterations: rgit research --name %s --resume --max-iterations N", e.Name)
	case LimitCost, LimitTokens:
		return fmt.Sprintf("resume with a larger budget: rgit research --name %s --resume %s N", e.Name, budgetFlag(e.Limit))
	}
	return fmt.Sprintf("check the agent with 'rgit agents', then resume (the failed topics are retried): rgit research --name %s --resume", e.Name)
}

// stopAt ends the research at a limit: the final cycle runs on what there
// is and the report carries a banner saying which limit and how far.
func (r *run) stopAt(kind Limit) {
	r.state.LimitReached, r.state.Limit = true, kind
	if kind.isBudget() {
		r.stopAtBudget(kind)
	} else if kind == LimitTime {
		r.state.LimitElapsedS = since(r.clock, r.started).Seconds()
		r.warn(fmt.Sprintf("time budget %s reached after %s; synthesizing what there is",
			roundDur(r.state.TimeBudgetS), roundDur(r.state.LimitElapsedS)))
	} else {
		r.warn(fmt.Sprintf("iteration limit %d reached; synthesizing what there is", r.state.MaxIterations))
	}
	r.state.Stage = StageSynthesize
}

// checkResearched refuses to synthesize when no topic was accepted: a
// report of nothing is not a result.
func (r *run) checkResearched() error {
	if r.plan == nil || r.plan.Counts().Complete > 0 {
		return nil
	}
	e := &ResearchFailedError{Name: r.lay.Name(), Exhausted: len(r.state.Exhausted), Agent: r.state.FailedAgent}
	if r.state.LimitReached {
		e.Limit = r.state.Limit
	}
	if r.state.LastError != nil {
		e.LastError = oneLine(*r.state.LastError)
	}
	// No report: leave no empty report directory behind in the work tree
	// (os.Remove removes only empty ones).
	_ = os.Remove(r.lay.Reports())
	_ = os.Remove(filepath.Dir(r.lay.Reports()))
	return e
}

// reopen decides how a resumed session goes on. Research that failed on
// every topic is tried again. A session a limit stopped, resumed with that
// limit raised, researches its unfinished topics and synthesizes again,
// even after it completed: the intermediate files come back from the last
// commit that had them.
func (r *run) reopen(lifted bool) error {
	if r.state.Council != nil {
		r.reopenCouncil(lifted)
		return nil
	}
	if r.plan == nil {
		return nil
	}
	if r.plan.Counts().Complete == 0 && len(r.state.Exhausted) > 0 && !r.state.IsComplete {
		r.notice(fmt.Sprintf("retrying %d topics on which research failed", len(r.state.Exhausted)))
		r.state.Exhausted = nil
		r.state.Stage = StageResearch
	}
	if !lifted || !r.state.LimitReached {
		return nil
	}
	r.state.LimitReached, r.state.Limit, r.state.LimitElapsedS, r.state.BudgetStop = false, "", 0, nil
	n := r.unfinished()
	if n == 0 {
		return nil
	}
	if r.state.IsComplete {
		if err := r.restoreIntermediate(); err != nil {
			return err
		}
		r.state.IsComplete = false
	}
	r.state.Stage = StageResearch
	r.notice(fmt.Sprintf("limit raised: researching %d unfinished topics, then synthesizing again", n))
	return nil
}

// unfinished counts the topics research can still work on.
func (r *run) unfinished() int {
	n := 0
	for _, t := range r.plan.Topics {
		if t.Status != plan.Complete && !r.state.isExhausted(t.Name) {
			n++
		}
	}
	return n
}

// restoreIntermediate writes back the intermediate files the completion
// commit dropped, from the newest commit before it.
func (r *run) restoreIntermediate() error {
	commits, err := r.store.Log(r.lay.Branch(), 20)
	if err != nil {
		return fmt.Errorf("read session history: %w", err)
	}
	rev := ""
	for _, c := range commits {
		if c.Trailer(string(TrailerPhase)) != string(PhaseComplete) {
			rev = c.Hash
			break
		}
	}
	if rev == "" {
		return nil
	}
	files, err := r.store.ListFiles(rev, r.lay.WorkspaceTree())
	if err != nil {
		return fmt.Errorf("list %s at %s: %w", r.lay.WorkspaceTree(), rev, err)
	}
	for _, f := range files {
		rel, ok := r.lay.WorkspaceRel(f)
		if !ok || !layout.Archived(rel) || rel == layout.PlanFile || rel == layout.StateFile {
			continue
		}
		data, err := r.store.ReadFile(rev, f)
		if err != nil {
			return fmt.Errorf("read %s at %s: %w", f, rev, err)
		}
		if err := writeFile(r.lay.File(rel), data); err != nil {
			return fmt.Errorf("restore %s: %w", rel, err)
		}
	}
	return nil
}

// limitWarning is the summary's line for a session a limit stopped.
func (r *run) limitWarning(complete, total int) string {
	if r.state.Limit.isBudget() {
		return r.budgetWarning(complete, total)
	}
	if r.state.Limit == LimitTime {
		return fmt.Sprintf("time budget %s reached after %s: %d of %d topics complete; resume with a new --time to finish",
			roundDur(r.state.TimeBudgetS), roundDur(r.state.LimitElapsedS), complete, total)
	}
	return fmt.Sprintf("iteration limit reached (%d of %d): %d of %d topics complete; resume with a higher --max-iterations to finish",
		r.state.Iteration, r.state.MaxIterations, complete, total)
}

// lastVerdict is a review's verdict and gap count, for the progress event
// of its commit.
type lastVerdict struct {
	v    Verdict
	gaps int
}

// ranAs is the agent a call ran as: spec itself when it names a model,
// else spec with the model the backend reported (claude ->
// claude:claude-opus-4-6), so trailers and rgit log name the real model.
func ranAs(spec, reported string) string {
	if reported == "" || strings.ContainsAny(spec, ":/") { // "provider/model" names opencode's model
		return spec
	}
	return spec + ":" + reported
}

// noteRanAs remembers what a spec without a model ran as.
func (s *State) noteRanAs(spec, full string) {
	if full == "" || full == spec {
		return
	}
	if s.RanAs == nil {
		s.RanAs = map[string]string{}
	}
	s.RanAs[spec] = full
	s.pinModel(spec, full)
}

// agentName is how the methodology names an agent spec: as it ran.
func (s *State) agentName(spec string) string {
	if full, ok := s.RanAs[spec]; ok {
		return full
	}
	return spec
}

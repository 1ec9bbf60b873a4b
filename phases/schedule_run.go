package phases

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/rgit-dev/rgit/phases/plan"
)

// stageLanded, when set by a benchmark, hears how long applying and
// committing each result took: rgit's own time per commit, without the
// calls it started meanwhile.
var stageLanded func(d time.Duration)

// stageWaiting, when set by a test, hears that the stage has started every
// call it may and waits for one to end, with how many are in flight.
var stageWaiting func(busy int)

// flight is one topic call started by the research stage.
type flight struct {
	job   topicJob
	prior plan.Status // the topic's status before it started
	res   topicResult
}

// researchStage runs the topic steps, up to jobs calls at once, until
// research is done or a limit is reached. This goroutine is the only
// writer: it decides, starts calls, and applies and commits their results
// one at a time in the order they arrive. The calls run in their own
// goroutines, read only their job and write only their scratch directory
// (their output in place when jobs is 1). Every goroutine started here has
// ended when it returns.
func (r *run) researchStage(ctx context.Context) error {
	jobs := r.jobs()
	if err := os.RemoveAll(r.lay.Scratch("")); err != nil { // a crashed run's
		return fmt.Errorf("clear scratch: %w", err)
	}
	s := newScheduler(jobs)
	callCtx, cancelCalls := context.WithCancel(ctx)
	results := make(chan *flight, jobs) // never blocks: at most jobs in flight
	var wg sync.WaitGroup
	defer func() {
		cancelCalls()
		wg.Wait()
	}()
	deadline, stop := r.deadline()
	defer stop()
	timeUp := false
	dispatch := func() error {
		for !timeUp && s.free() {
			step, ok := s.next(r.plan, r.state.isExhausted, r.state.Depth, r.state.Breadth,
				r.state.Iteration+s.reserved < r.state.MaxIterations && !r.overBudget() && r.budgetLimit(s) == "")
			if !ok {
				return nil
			}
			f, err := r.startTopic(step, jobs > 1)
			if err != nil {
				return err
			}
			if f.job.phase == PhaseResearch {
				// the iteration this research runs: [3/14] means the third is running
				f.job.in.iteration = r.state.Iteration + s.reserved + 1
			}
			s.start(f.job.phase, f.job.topic.Name)
			wg.Add(1)
			go func() {
				defer wg.Done()
				f.res = r.calls.runTopic(callCtx, f.job)
				if jobs > 1 {
					r.callDone(f)
				}
				results <- f
			}()
		}
		return nil
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := dispatch(); err != nil {
			return err
		}
		if s.busy() == 0 {
			return r.endResearch(timeUp)
		}
		if stageWaiting != nil {
			stageWaiting(s.busy())
		}
		select {
		case f := <-results:
			s.finish(f.job.topic.Name)
			t0 := time.Now()
			scratch := f.job.scratch
			var started time.Duration // in dispatch, not in the commit
			if jobs > 1 {
				// The calls this result makes possible start once its
				// files are written, before the snapshot that commits
				// them: they read those files, write only their scratch
				// directories, and the commit's length leaves the
				// critical path. With --jobs 1 the order stays commit,
				// then start. The result's scratch goes first: a restart
				// of the same call reuses its name.
				r.commits.written = func() error {
					if err := os.RemoveAll(scratch); err != nil {
						return fmt.Errorf("clear scratch: %w", err)
					}
					scratch = ""
					t := time.Now()
					defer func() { started = time.Since(t) }()
					return dispatch()
				}
			}
			err := r.land(ctx, f)
			r.commits.written = nil
			if scratch != "" {
				os.RemoveAll(scratch)
			}
			if err != nil {
				return err
			}
			if stageLanded != nil {
				stageLanded(time.Since(t0) - started)
			}
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline:
			// The time budget's end: the calls in flight are cancelled
			// and their results dropped; what they would have done is
			// done again on resume.
			deadline, timeUp = nil, true
			cancelCalls()
		}
	}
}

// startTopic readies a step's job; a topic being researched is In
// Progress in every commit made meanwhile, so a crash re-runs it.
func (r *run) startTopic(step plan.Step, scratch bool) (*flight, error) {
	phase := PhaseResearch
	if step.Kind == plan.StepReview {
		phase = PhaseReview
	}
	j, err := r.topicJob(phase, step.Topic, scratch)
	if err != nil {
		return nil, err
	}
	f := &flight{job: j, prior: step.Topic.Status}
	if phase == PhaseResearch {
		step.Topic.Status = plan.InProgress
	}
	return f, nil
}

// land applies and commits one finished call; the caller removes its
// scratch directory. A call cancelled while the
// run goes on (the time budget ran out) is dropped: its topic is as before.
func (r *run) land(ctx context.Context, f *flight) error {
	t := r.plan.Find(f.job.topic.Name)
	if t == nil {
		return fmt.Errorf("apply %s: topic %q left the plan", f.job.phase, f.job.topic.Name)
	}
	if errors.Is(f.res.call.err, context.Canceled) && ctx.Err() == nil {
		t.Status = f.prior
		return nil
	}
	r.path.topic(f, t.Parent, r.subdivides(t))
	if f.job.phase == PhaseReview {
		return r.applyReview(ctx, t, f.job, f.res)
	}
	return r.applyResearch(ctx, t, f.job, f.res)
}

// subdivides says whether a topic's research may still add subtopics.
func (r *run) subdivides(t *plan.Topic) bool {
	return t.Depth < r.state.Depth && len(r.plan.Children(t.Name)) < r.state.Breadth
}

// endResearch moves to the final cycle once no call is in flight and none
// may start: research is done, or a limit was reached.
func (r *run) endResearch(timeUp bool) error {
	step := plan.Next(r.plan, func(t *plan.Topic) bool { return r.state.isExhausted(t.Name) })
	switch {
	case step.Kind == plan.StepDone:
	case r.state.Iteration >= r.state.MaxIterations:
		r.stopAt(LimitIterations)
	case r.budgetLimit(nil) != "":
		r.stopAt(r.budgetLimit(nil))
	case timeUp || r.overBudget():
		r.stopAt(LimitTime)
	default:
		return fmt.Errorf("schedule: no step may start, yet topic %q waits", step.Topic.Name)
	}
	r.state.Stage = StageSynthesize
	return nil
}

// deadline fires when the time budget leaves half its synthesis reserve:
// calls still in flight then are cancelled. Dispatch stops earlier, at
// the reserve (overBudget). Only the system clock runs out.
func (r *run) deadline() (<-chan time.Time, func()) {
	budget := r.state.timeBudget()
	if _, real := r.clock.(systemClock); !real || budget <= 0 {
		return nil, func() {}
	}
	at := r.started.Add(budget - synthesisReserve(budget)/2)
	t := time.NewTimer(max(0, at.Sub(r.clock.Now())))
	return t.C, func() { t.Stop() }
}

// callDone reports a call's end before its commit, so progress can show
// what is in flight.
func (r *run) callDone(f *flight) {
	c := f.res.call
	msg := "ok"
	switch {
	case errors.Is(c.err, errExhausted):
		msg = "exhausted"
	case c.err != nil:
		msg = "stopped: " + oneLine(Redact(c.err.Error()))
	}
	r.calls.reporter.Report(Event{Kind: EventCallDone, Phase: f.job.phase, Topic: f.job.topic.Name,
		Iteration: f.job.in.iteration, Max: f.job.in.max, Agent: c.out.model, Message: msg, Duration: c.out.elapsed})
}

// syncReporter lets calls running at once report: one event at a time.
type syncReporter struct {
	mu sync.Mutex
	r  Reporter
}

func (s *syncReporter) Report(e Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.r.Report(e)
}

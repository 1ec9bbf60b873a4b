package phases

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/rgit-dev/rgit/gitstore"
)

// errMemberOnly ends a --member run after the member's research loop: the
// coordinating run does the rest.
var errMemberOnly = errors.New("member loop done")

// councilRound runs the council stage: the members' research loops in
// parallel, the cross-pollination round, the anonymized peer review, and
// the octopus merge that takes the session on to synthesis. Every step
// reads its member's branch head, so a resumed run continues each member
// where it stands and never reruns a finished one.
func (r *run) councilRound(ctx context.Context) error {
	c := r.state.Council
	head, err := r.store.Head(r.lay.Branch())
	if err != nil {
		return fmt.Errorf("read session branch: %w", err)
	}
	runs, err := r.memberRuns(head)
	if err != nil {
		return err
	}
	if only := r.cfg.Council.Member; only != "" {
		i := slices.IndexFunc(runs, func(mr *memberRun) bool { return mr.m.Name == only })
		if err := r.inParallel(ctx, runs[i:i+1], func(ctx context.Context, mr *memberRun) error { return mr.research(ctx) }); err != nil {
			return err
		}
		if f := runs[i].failed; f != nil {
			return &CouncilFailedError{Name: r.cfg.Name, Errors: map[string]string{only: Redact(f.Error())}}
		}
		r.notice(fmt.Sprintf("member %s: research complete on %s after %d iterations; push it and resume the council", only, r.lay.MemberBranch(only), runs[i].rec.Iteration))
		return errMemberOnly
	}
	r.report(fmt.Sprintf("Phase 1: %d members researching in parallel: %s", len(runs), strings.Join(c.names(), ", ")))
	if err := r.inParallel(ctx, runs, func(ctx context.Context, mr *memberRun) error { return mr.research(ctx) }); err != nil {
		return err
	}
	alive := survivors(runs)
	if len(alive) == 0 {
		return r.allFailed(runs)
	}
	r.report(phaseOneDone(runs))
	if kind := runs[0].spend.limit(); kind != "" {
		// More rounds would spend what the synthesis is kept.
		r.report("Phase 2: skipped, the budget is reached")
		return r.octopus(ctx, runs, alive, kind)
	}
	if len(alive) > 1 {
		r.report("Phase 2: Starting refinement...")
		// Who reads whom is fixed before any member starts: the records
		// themselves change as the members commit.
		reads := map[*memberRun][]string{}
		for _, mr := range alive {
			reads[mr] = others(alive, mr)
		}
		if err := r.inParallel(ctx, alive, func(ctx context.Context, mr *memberRun) error {
			return mr.refine(ctx, reads[mr])
		}); err != nil {
			return err
		}
		if alive = survivors(alive); len(alive) == 0 {
			return r.allFailed(runs)
		}
	}
	if len(alive) > 1 {
		r.report("Phase 2: Starting anonymized peer review...")
		names := make([]string, len(alive))
		for i, mr := range alive {
			names[i] = mr.m.Name
		}
		if err := r.inParallel(ctx, alive, func(ctx context.Context, mr *memberRun) error {
			err := mr.rank(ctx, r.cfg.Name, slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == mr.m.Name }))
			if err != nil && ctx.Err() == nil && memberFault(err) {
				// A failed ranking leaves the member in, without its ranking.
				mr.rankErr = err
				return nil
			}
			return err
		}); err != nil {
			return err
		}
		for _, mr := range alive {
			if mr.rankErr != nil {
				r.warn(fmt.Sprintf("%s's peer review failed; the aggregate ranking goes without it (%s)", mr.m.Name, oneLine(Redact(mr.rankErr.Error()))))
			}
		}
	}
	return r.octopus(ctx, runs, alive, "")
}

// memberRuns readies every member: its branch (tracked from a remote when
// it exists only there), its directory restored from its branch head, and
// its record.
func (r *run) memberRuns(sessionHead string) ([]*memberRun, error) {
	c := r.state.Council
	rep := &lockedReporter{rep: r.deps.Reporter}
	calls := *r.calls
	calls.reporter = quietStarts{rep}
	base := r.inputs(RoleResearch)
	base.chain = slices.DeleteFunc(slices.Clone(base.chain), func(s string) bool { return s == r.state.Model })
	var out []*memberRun
	for _, m := range c.Members {
		branch := r.lay.MemberBranch(m.Name)
		if err := os.RemoveAll(r.lay.MemberDir(m.Name)); err != nil {
			return nil, fmt.Errorf("clear %s: %w", r.lay.MemberDir(m.Name), err)
		}
		head, err := headOf(r.store, branch)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", branch, err)
		}
		// A member another clone took further (pushed, then fetched here)
		// is taken from the remote, never run again from behind.
		take, verb := r.store.TrackRemote, "took"
		if head != "" {
			take, verb = r.store.FastForwardRemote, "fast-forwarded"
		}
		if remote, err := take(branch); err == nil && remote != "" {
			r.notice(fmt.Sprintf("%s member %s from %s/%s", verb, m.Name, remote, branch))
			head, _ = headOf(r.store, branch)
		} else if err != nil && !errors.Is(err, gitstore.ErrNotFound) {
			return nil, fmt.Errorf("track %s: %w", branch, err)
		}
		if head != "" {
			if err := r.store.Restore(branch, r.lay.MemberMounts(m.Name), nil); err != nil {
				return nil, fmt.Errorf("restore member %s from %s: %w", m.Name, branch, err)
			}
		}
		rec, err := readMember(r.lay, m)
		if err != nil {
			return nil, err
		}
		rec.Head = head
		mc := &memberCommitter{lay: r.lay, member: m.Name, base: sessionHead, head: head, token: r.lock.info.Token, clock: r.clock}
		out = append(out, &memberRun{m: m, rec: rec, commits: mc, calls: &calls, in: base, c: c, rep: rep, lay: r.lay})
	}
	spend := newCouncilSpend(r.state.Budget, r.state.Usage, c, out)
	for _, mr := range out {
		mr.spend = spend
	}
	return out, nil
}

func survivors(runs []*memberRun) []*memberRun {
	var out []*memberRun
	for _, mr := range runs {
		if mr.failed == nil && (mr.rec.Complete || mr.stopped) {
			out = append(out, mr)
		}
	}
	return out
}

func others(runs []*memberRun, me *memberRun) []string {
	var out []string
	for _, mr := range runs {
		if mr != me {
			out = append(out, mr.m.Name)
		}
	}
	return out
}

func phaseOneDone(runs []*memberRun) string {
	var failed []string
	for _, mr := range runs {
		if mr.failed != nil {
			failed = append(failed, mr.m.Name)
		}
	}
	if len(failed) == 0 {
		return "Phase 1: All agents complete"
	}
	return fmt.Sprintf("Phase 1: %d of %d agents complete; left out: %s", len(runs)-len(failed), len(runs), strings.Join(failed, ", "))
}

// allFailed is the end of a council whose every member failed: nothing is
// merged, and a resume runs them again from their branch heads.
func (r *run) allFailed(runs []*memberRun) error {
	e := &CouncilFailedError{Name: r.cfg.Name, Errors: map[string]string{}}
	for _, mr := range runs {
		if mr.failed != nil {
			e.Errors[mr.m.Name] = oneLine(Redact(mr.failed.Error()))
		}
	}
	return e
}

// report tells the council's progress (progress.log takes these lines).
func (r *run) report(msg string) {
	r.deps.Reporter.Report(Event{Kind: EventNotice, Message: msg})
}

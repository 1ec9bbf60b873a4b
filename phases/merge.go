package phases

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rgit-dev/rgit/gitstore"
)

// mergeReport brings reports/<name>/report.md into the target branch,
// once: a resumed run after a crash checks whether it is already there.
// A target that changed the report's path gets a MergeConflictError.
func (r *run) mergeReport(ctx context.Context) error {
	branch, target := r.lay.Branch(), r.state.TargetBranch
	if r.cfg.NoMerge || target == "" {
		if target == "" && !r.cfg.NoMerge {
			r.warn("HEAD is detached and no --merge-into was given; the report stays on " + branch)
		}
		return r.repack(ctx)
	}
	path := r.lay.ReportTree()
	mine, err := r.store.ReadFile(branch, path)
	if err != nil {
		return fmt.Errorf("read report at %s: %w", branch, err)
	}
	if theirs, err := r.store.ReadFile(target, path); err == nil && bytes.Equal(theirs, mine) {
		r.merged.target = target
		r.repairTarget(ctx, target, path)
		r.discardCopy(target)
		return r.repack(ctx)
	}
	hash, err := r.store.Merge(ctx, gitstore.MergeOptions{Source: branch, Target: target, Paths: []string{path},
		Message: fmt.Sprintf("Merge %s: report on %s", branch, oneLine(CleanLine(r.state.OriginalTopic))),
		Trailers: []gitstore.Trailer{{Key: string(TrailerPhase), Value: string(PhaseMerge)},
			{Key: string(TrailerRun), Value: r.lock.info.Token}},
		When: commitTime(r.clock), Guard: r.lock.fence})
	if errors.Is(err, gitstore.ErrConflict) {
		return &MergeConflictError{Name: r.lay.Name(), Branch: branch, Target: target, Path: path}
	}
	if err != nil {
		return fmt.Errorf("merge into %s: %w", target, err)
	}
	r.merged = merged{target: target, commit: hash}
	r.discardCopy(target)
	return r.repack(ctx)
}

// repackLoose is how many loose objects make the end of a session repack.
// A repack is git repack -d and gc --auto: seconds, against a session
// whose own calls may take less. Below it the objects stay loose, as git
// leaves them below gc.auto (6700), and a later session packs them all;
// they are as durable loose as packed.
const repackLoose = 1000

func (r *run) repack(ctx context.Context) error {
	if n, err := r.store.LooseObjects(); err == nil && n < repackLoose {
		return nil
	}
	if err := r.store.Repack(ctx); err != nil {
		r.warn(fmt.Sprintf("repack: %v", err))
	}
	return nil
}

// summary is what the user is told at the end of a run.
func (r *run) summary() Summary {
	s := Summary{Name: r.cfg.Name, Branch: r.lay.Branch(), Target: r.merged.target, MergeCommit: r.merged.commit}
	if r.state == nil {
		return s
	}
	s.Iterations, s.MaxIter, s.Retried = r.state.Iteration, r.state.MaxIterations, r.state.Retried
	s.Wall, s.CriticalPath, s.TreePath, s.Jobs = since(r.clock, r.started), r.path.length(), r.path.treeLength(), r.jobs()
	if r.state.Council != nil {
		s.Jobs = r.councilJobs(len(r.state.Council.Members)) // members run side by side, whatever a backend's topic default
	}
	s.AgentTime = time.Duration(r.state.AgentSeconds() * float64(time.Second))
	s.Exhausted, s.LimitReached, s.Finished = r.state.Exhausted, r.state.LimitReached, r.state.IsComplete
	s.ReportPath = r.lay.ReportTree()
	s.Council = r.state.Council.summary()
	s.Citations = r.state.Citations.String()
	s.Spend, s.Budget = SpendOf(r.state.Usage), r.state.Budget
	if r.plan != nil {
		c := r.plan.Counts()
		s.Complete, s.Total = c.Complete, c.Total
	}
	if s.LimitReached {
		s.Warning = r.limitWarning(s.Complete, s.Total)
	}
	return s
}

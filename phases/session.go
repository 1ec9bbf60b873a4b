package phases

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/phases/plan"
	"github.com/rgit-dev/rgit/prompts"
)

// openSession restores an existing session from its branch head, or lays
// out a new one, and readies the committer.
func (r *run) openSession(ctx context.Context, prior *State) error {
	if _, err := prompts.Install(layout.Templates(r.lay.Root())); err != nil {
		return fmt.Errorf("install templates: %w", err)
	}
	head := ""
	if prior != nil {
		if err := r.store.Restore(r.lay.Branch(), r.lay.Mounts(), r.lay.Excludes()); err != nil {
			return fmt.Errorf("restore workspace from %s: %w", r.lay.Branch(), err)
		}
		h, err := r.store.Head(r.lay.Branch())
		if err != nil {
			return fmt.Errorf("read session branch: %w", err)
		}
		head = h
		r.state = prior
		r.notice(fmt.Sprintf("resuming session %s from %s (stage %s, iteration %d)", r.cfg.Name, r.lay.Branch(), prior.Stage, prior.Iteration))
		var lifted bool
		r.state.Settings, lifted = resumeSettings(prior.Settings, r.cfg)
		r.state.Settings = r.state.Settings.resolved(r.deps.Resolve, r.notice)
		if err := r.loadPlan(); err != nil {
			return err
		}
		if err := r.reopen(lifted); err != nil {
			return err
		}
	} else if err := r.newState(); err != nil {
		return err
	}
	tmpl, err := r.sessionTemplates(r.calls.tmpl)
	if err != nil {
		return err
	}
	r.calls.tmpl = tmpl
	r.commits = &committer{store: r.store, lay: r.lay, token: r.lock.info.Token, clock: r.clock, head: head,
		fence: r.lock.fence}
	r.state.LockToken = &r.lock.info.Token
	r.state.Runs = append(r.state.Runs, r.lock.info.Token)
	for _, d := range []string{r.lay.Workspace(), r.lay.Reports(), r.lay.File(layout.ProgressDir)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("create %s: %w", d, err)
		}
	}
	if prior == nil {
		// The session exists from its first commit on, so even a run
		// interrupted while planning can be resumed by name.
		s := r.state
		if _, err := r.commit(ctx, record{phase: PhaseStart, summary: "start: " + s.OriginalTopic,
			body: fmt.Sprintf("Breadth %d, depth %d, at most %d iterations.\nResearch agent %s, review agent %s.",
				s.Breadth, s.Depth, s.MaxIterations, s.Model, s.ReviewModel)}); err != nil {
			return err
		}
	}
	if r.cfg.Reorganize {
		n, err := r.reorganizeArchive()
		if err != nil {
			return err
		}
		r.notice(fmt.Sprintf("wrote %d archived files to %s/", n, r.lay.TreeFile(layout.ArchiveDir)))
	}
	return nil
}

// newState is a new session's state: its settings come from the Config,
// whose target branch validate settled.
func (r *run) newState() error {
	r.state = &State{
		OriginalTopic: r.cfg.Topic, Settings: newSettings(r.cfg, r.cfg.MergeInto).resolved(r.deps.Resolve, r.notice),
		CurrentPhase: PhasePlan, StartTime: unixSeconds(r.clock.Now()),
		Version: stateVersion, Name: r.cfg.Name, Stage: StagePlan,
	}
	r.state.init()
	r.state.CorpusCommit = r.corpusCommit()
	r.newCouncil()
	return nil
}

// loadPlan reads the restored plan; a session still planning, or complete
// (its plan left the tree), may have none.
func (r *run) loadPlan() error {
	path := r.lay.Plan()
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && (r.state.Stage == StagePlan || r.state.Stage == StageComplete || r.state.Council != nil) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read plan: %w", err)
	}
	p, err := plan.Parse(path, data)
	if err != nil {
		return &BadInputError{Msg: err.Error(), Hint: "fix research_plan.md on the session branch, or start a new session"}
	}
	cleanPlan(p)
	r.plan = p
	return nil
}

// headOf is a branch's head, "" when it does not exist.
func headOf(s Store, branch string) (string, error) {
	h, err := s.Head(branch)
	if errors.Is(err, gitstore.ErrNotFound) {
		return "", nil
	}
	return h, err
}

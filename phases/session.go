package phases

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases/plan"
	"github.com/rgit-dev/rgit/prompts"
)

// committedState reads state.json at the session branch head; nil if the
// branch does not exist.
func (r *run) committedState(store *gitstore.Store) (*State, error) {
	_, err := store.Head(r.branch)
	if errors.Is(err, gitstore.ErrNotFound) && r.cfg.Resume {
		// A session pushed from another machine and fetched here.
		remote, terr := store.TrackRemote(r.branch)
		if terr == nil && remote != "" {
			r.notice(fmt.Sprintf("created %s from %s/%s", r.branch, remote, r.branch))
			_, err = store.Head(r.branch)
		} else if terr != nil && !errors.Is(terr, gitstore.ErrNotFound) {
			return nil, fmt.Errorf("track remote session: %w", terr)
		}
	}
	if errors.Is(err, gitstore.ErrNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("read session branch: %w", err)
	}
	path := ".research/" + r.name + "/state.json"
	data, err := store.ReadFile(r.branch, path)
	if err != nil {
		return nil, fmt.Errorf("read %s at %s: %w", path, r.branch, err)
	}
	return ParseState(r.branch+":"+path, data)
}

// openSession restores an existing session from its branch head, or lays
// out a new one.
func (r *run) openSession(ctx context.Context, prior *State) error {
	if _, err := prompts.Install(filepath.Join(r.root, ".research", "templates")); err != nil {
		return fmt.Errorf("install templates: %w", err)
	}
	if prior != nil {
		if err := r.store.Restore(r.branch, r.mounts(), r.excludes()); err != nil {
			return fmt.Errorf("restore workspace from %s: %w", r.branch, err)
		}
		r.state = prior
		r.notice(fmt.Sprintf("resuming session %s from %s (stage %s, iteration %d)", r.name, r.branch, prior.Stage, prior.Iteration))
		r.applyOverrides()
		if err := r.loadPlan(); err != nil {
			return err
		}
	} else if err := r.newState(); err != nil {
		return err
	}
	r.state.LockToken = &r.lock.info.Token
	r.state.Runs = append(r.state.Runs, r.lock.info.Token)
	for _, d := range []string{r.ws, r.reports, filepath.Join(r.ws, "progress")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("create %s: %w", d, err)
		}
	}
	if prior == nil {
		// The session exists from its first commit on, so even a run
		// interrupted while planning can be resumed by name.
		if _, err := r.commit(ctx, record{phase: "start", summary: "start: " + r.state.OriginalTopic,
			body: fmt.Sprintf("Breadth %d, depth %d, at most %d iterations.\nResearch agent %s, review agent %s.",
				r.state.Breadth, r.state.Depth, r.state.MaxIterations, r.state.Model, r.state.ReviewModel)}); err != nil {
			return err
		}
	}
	if r.cfg.Reorganize {
		n, err := r.reorganizeArchive()
		if err != nil {
			return err
		}
		r.notice(fmt.Sprintf("wrote %d archived files to .research/%s/archive/", n, r.name))
	}
	return nil
}

func (r *run) newState() error {
	target := r.cfg.MergeInto
	if target == "" {
		cur, err := r.store.CurrentBranch()
		if err != nil {
			return fmt.Errorf("read HEAD: %w", err)
		}
		target = cur
	}
	model, review := r.cfg.Model, r.cfg.ReviewModel
	if r.cfg.MockMode {
		model, review = "mock", "mock"
	}
	r.state = &State{
		OriginalTopic: r.cfg.Topic, Breadth: r.cfg.Breadth, Depth: r.cfg.Depth,
		CurrentPhase: string(agents.PhasePlan), MaxIterations: r.cfg.MaxIterations,
		Model: model, ReviewModel: review, StartTime: float64(time.Now().UnixNano()) / 1e9,
		MockMode: r.cfg.MockMode, Timeout: int(r.cfg.Timeout / time.Second),
		Version: stateVersion, Name: r.name, Stage: StagePlan, TargetBranch: target,
		Fallback: r.cfg.Fallback, TimeBudgetS: r.cfg.TimeBudget.Seconds(), MaxPerTopic: r.cfg.MaxPerTopic,
		Corpus: r.cfg.Corpus,
	}
	r.state.init()
	return nil
}

// applyOverrides lets a resumed run change what is safe to change.
func (r *run) applyOverrides() {
	s := r.state
	if r.cfg.explicitMax && r.cfg.MaxIterations > s.MaxIterations {
		s.MaxIterations = r.cfg.MaxIterations
		s.LimitReached = false
	}
	if r.cfg.Model != "" && r.cfg.Model != "auto" {
		s.Model = r.cfg.Model
	}
	if r.cfg.ReviewModel != "" && r.cfg.ReviewModel != "auto" {
		s.ReviewModel = r.cfg.ReviewModel
	}
	if r.cfg.MockMode {
		s.Model, s.ReviewModel, s.MockMode = "mock", "mock", true
	}
	if len(r.cfg.Fallback) > 0 {
		s.Fallback = r.cfg.Fallback
	}
	if r.cfg.Timeout > 0 {
		s.Timeout = int(r.cfg.Timeout / time.Second)
	}
	if r.cfg.MergeInto != "" {
		s.TargetBranch = r.cfg.MergeInto
	}
	if len(r.cfg.Corpus) > 0 {
		s.Corpus = r.cfg.Corpus
	}
}

func (r *run) loadPlan() error {
	path := filepath.Join(r.ws, "research_plan.md")
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && r.state.Stage == StagePlan {
		return nil
	}
	if errors.Is(err, os.ErrNotExist) && r.state.Stage == StageComplete {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read plan: %w", err)
	}
	p, err := plan.Parse(path, data)
	if err != nil {
		return &BadInputError{Msg: err.Error(), Hint: "fix research_plan.md on the session branch, or start a new session"}
	}
	r.plan = p
	return nil
}

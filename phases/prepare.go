package phases

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/prompts"
)

// prepare validates everything that can be validated, then (and only then)
// initialises the repository, takes the lock and restores or creates the
// session.
func (r *run) prepare(ctx context.Context) error {
	dir := r.cfg.Dir
	if dir == "" {
		dir = "."
	}
	store, err := r.deps.OpenStore(dir)
	exists := err == nil
	if err != nil && !errors.Is(err, gitstore.ErrNotRepository) {
		return fmt.Errorf("open repository: %w", err)
	}
	closeStore := func() {
		if store != nil {
			store.Close()
		}
	}
	root, _ := filepath.Abs(dir)
	if exists {
		root = store.Root()
	}
	tmpl, err := prompts.Load(layout.Templates(root))
	if err != nil {
		closeStore()
		return &BadInputError{Msg: err.Error(), Hint: "fix the template, or delete it to get the default back"}
	}
	var prior *State
	if exists {
		if prior, err = r.committedState(store); err != nil {
			closeStore()
			return err
		}
	}
	if err := r.checkStart(prior); err != nil {
		closeStore()
		return err
	}
	if !exists {
		var created bool
		store, created, err = r.deps.InitStore(dir)
		if err != nil {
			return fmt.Errorf("init repository: %w", err)
		}
		if created {
			r.notice(fmt.Sprintf("initialised a git repository in %s", store.Root()))
		}
	}
	r.store, r.lay = store, layout.New(store.Root(), r.cfg.Name)
	if err := store.AddExclude(layout.ExcludePattern); err != nil {
		store.Close()
		return fmt.Errorf("exclude workspace: %w", err)
	}
	r.lock, err = acquireLock(r.lay, r.cfg.ForceResume, r.clock, r.notice)
	if err != nil {
		store.Close()
		return err
	}
	r.calls = &callRunner{agents: &agentPool{newAgent: r.deps.NewAgent}, tmpl: tmpl, lay: r.lay, clock: r.clock, reporter: r.deps.Reporter}
	if err := r.openSession(ctx, prior); err != nil {
		r.lock.release()
		store.Close()
		return err
	}
	return nil
}

// checkStart refuses what cannot be started or resumed, before anything
// is written.
func (r *run) checkStart(prior *State) error {
	name := r.cfg.Name
	if err := r.checkCouncilResume(prior); err != nil {
		return err
	}
	if prior == nil && r.cfg.Resume {
		return badInput("run 'rgit list' to see the sessions here, or drop --resume to start one", "no session named %q to resume", name)
	}
	if prior != nil && r.cfg.Topic != "" && prior.OriginalTopic != r.cfg.Topic {
		return badInput("pick another --name, or resume it with: rgit research --name "+name+" --resume",
			"session %q already researches %q", name, prior.OriginalTopic)
	}
	if prior == nil && r.cfg.NeedsConfirmation() {
		return r.confirm()
	}
	return nil
}

func (r *run) confirm() error {
	q := fmt.Sprintf("This session may run up to %d iterations (breadth %d, depth %d). Continue?", r.cfg.MaxIterations, r.cfg.Breadth, r.cfg.Depth)
	if r.deps.Confirm == nil {
		return badInput("pass --yes to confirm, or lower --breadth/--depth",
			"max iterations %d is above 20 and there is no terminal to confirm it", r.cfg.MaxIterations)
	}
	ok, err := r.deps.Confirm(q)
	if err != nil {
		return fmt.Errorf("confirm: %w", err)
	}
	if !ok {
		return fmt.Errorf("%w: not confirmed", ErrCancelled)
	}
	return nil
}

// committedState reads state.json at the session branch head; nil if the
// branch does not exist.
func (r *run) committedState(store Store) (*State, error) {
	lay := layout.New(store.Root(), r.cfg.Name)
	branch := lay.Branch()
	_, err := store.Head(branch)
	if errors.Is(err, gitstore.ErrNotFound) && r.cfg.Resume {
		// A session pushed from another machine and fetched here.
		remote, terr := store.TrackRemote(branch)
		if terr == nil && remote != "" {
			r.notice(fmt.Sprintf("created %s from %s/%s", branch, remote, branch))
			_, err = store.Head(branch)
		} else if terr != nil && !errors.Is(terr, gitstore.ErrNotFound) {
			return nil, fmt.Errorf("track remote session: %w", terr)
		}
	}
	if errors.Is(err, gitstore.ErrNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("read session branch: %w", err)
	}
	path := lay.StateTree()
	data, err := store.ReadFile(branch, path)
	if err != nil {
		return nil, fmt.Errorf("read %s at %s: %w", path, branch, err)
	}
	return ParseState(branch+":"+path, data)
}

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

// prepare opens the repository and checks everything that can be checked
// (validate.go), then, and only then, writes: the exclude entry, the
// session lock, and the restored or new session.
func (r *run) prepare(ctx context.Context) error {
	dir := r.cfg.Dir
	if dir == "" {
		dir = "."
	}
	store, err := r.openStore(dir)
	if err != nil {
		return err
	}
	opened := false
	defer func() {
		if !opened {
			store.Close()
		}
	}()
	root := store.Root()
	r.lay = layout.New(root, r.cfg.Name)
	tmpl, err := prompts.Load(layout.Templates(root))
	if err != nil {
		return &BadInputError{Msg: err.Error(), Hint: "fix the template, or delete it to get the default back"}
	}
	prior, err := r.committedState(store)
	if err != nil {
		return err
	}
	if err := r.checkStart(prior); err != nil {
		return err
	}
	r.calls = &callRunner{agents: &agentPool{newAgent: r.deps.NewAgent}, tmpl: tmpl, lay: r.lay, clock: r.clock, reporter: r.deps.Reporter}
	if err := r.validate(store, prior); err != nil {
		return err
	}
	if prior == nil && r.cfg.NeedsConfirmation() {
		if err := r.confirm(); err != nil {
			return err
		}
	}
	// The first write.
	store.Notify(r.notice)
	r.store = store
	if err := store.AddExclude(layout.ExcludePattern); err != nil {
		return fmt.Errorf("exclude workspace: %w", err)
	}
	if r.lock, err = r.takeLock(); err != nil {
		return err
	}
	// Read again under the lock: a run that held it may have committed
	// since, or created the session.
	if prior, err = r.committedState(store); err == nil {
		err = r.checkStart(prior)
	}
	if err == nil {
		err = r.openSession(ctx, prior)
	}
	if err != nil {
		r.lock.release()
		return err
	}
	opened = true
	return nil
}

// takeLock takes the session lock through a Store of its own, whose
// WithLock the lock's refresh goroutine may use while the run commits.
func (r *run) takeLock() (*lock, error) {
	ls, err := openGit(r.lay.Root())
	if err != nil {
		return nil, fmt.Errorf("open repository for the lock: %w", err)
	}
	l, err := acquireLock(ls, r.lay, r.cfg.ForceResume, r.clock, r.notice, r.stop)
	if err != nil {
		ls.Close()
		return nil, err
	}
	return l, nil
}

// openStore opens the repository; a missing or unsupported one is bad
// input. rgit never creates a repository nobody asked for.
func (r *run) openStore(dir string) (Store, error) {
	store, err := r.deps.OpenStore(dir)
	switch {
	case errors.Is(err, gitstore.ErrNotRepository):
		abs, _ := filepath.Abs(dir)
		return nil, badInput("create one with 'git init' and a first commit, or run rgit inside one",
			"%s is not in a git repository", abs)
	case errors.Is(err, gitstore.ErrUnsupportedRepo):
		return nil, badInput("run rgit in a repository with SHA-1 object names and files for refs (git's default format)", "%v", err)
	case err != nil:
		return nil, fmt.Errorf("open repository: %w", err)
	}
	return store, nil
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
	if errors.Is(err, gitstore.ErrNotFound) {
		return nil, badInput("pick another --name, or rename that branch with 'git branch -m "+branch+" NEW'",
			"branch %s exists but is not an rgit session (it has no %s)", branch, path)
	}
	if err != nil {
		return nil, fmt.Errorf("read %s at %s: %w", path, branch, err)
	}
	st, err := ParseState(branch+":"+path, data)
	if st != nil {
		st.OriginalTopic = CleanLine(st.OriginalTopic) // perhaps from someone else's branch
	}
	return st, err
}

package phases

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases/plan"
	"github.com/rgit-dev/rgit/prompts"
)

// Deps are what Research needs from outside: cmd wires the real ones, tests
// pass fakes.
type Deps struct {
	// NewAgent builds an agent from a backend:model spec.
	NewAgent func(spec string) (agents.Agent, error)
	Reporter Reporter
	// Confirm asks the user a yes/no question; nil means there is no terminal.
	Confirm func(question string) (bool, error)
}

// run is one process working on one session.
type run struct {
	cfg     Config
	deps    Deps
	store   *gitstore.Store
	name    string
	branch  string
	root    string // repository root
	ws      string // .research/<name> on disk
	reports string // reports/<name> on disk
	state   *State
	plan    *plan.Plan
	tmpl    *prompts.Set
	lock    *lock
	agents  map[string]agents.Agent
	started time.Time
	// events are noted in the next commit's body: fallback switches and
	// recovered failures, so the history says when and why.
	events []string
	// merged and mergeCommit say where this run merged the report.
	merged      string
	mergeCommit string
}

// Research runs, or resumes, the session cfg describes until its report is
// merged, a limit is reached, or ctx is cancelled. Bad input is reported as
// *BadInputError before anything is written.
func Research(ctx context.Context, cfg Config, deps Deps) (Summary, error) {
	if deps.Reporter == nil {
		deps.Reporter = ReporterFunc(func(Event) {})
	}
	notices, err := cfg.Normalize()
	if err != nil {
		return Summary{}, err
	}
	r := &run{cfg: cfg, deps: deps, name: cfg.Name, branch: "research/" + cfg.Name, agents: map[string]agents.Agent{}, started: time.Now()}
	for _, n := range notices {
		r.notice(n)
	}
	if err := r.prepare(ctx); err != nil {
		return Summary{}, err
	}
	defer r.store.Close()
	defer r.lock.release()
	if err := r.loop(ctx); err != nil {
		if ctx.Err() != nil {
			return r.summary(), ErrCancelled
		}
		return r.summary(), err
	}
	return r.summary(), nil
}

// prepare validates everything that can be validated, then (and only then)
// initialises the repository, takes the lock and restores or creates the
// session.
func (r *run) prepare(ctx context.Context) error {
	dir := r.cfg.Dir
	if dir == "" {
		dir = "."
	}
	store, err := gitstore.Open(dir)
	exists := err == nil
	if err != nil && !errors.Is(err, gitstore.ErrNotRepository) {
		return fmt.Errorf("open repository: %w", err)
	}
	root, _ := filepath.Abs(dir)
	if exists {
		root = store.Root()
	}
	tmpl, err := prompts.Load(filepath.Join(root, ".research", "templates"))
	if err != nil {
		return &BadInputError{Msg: err.Error(), Hint: "fix the template, or delete it to get the default back"}
	}
	r.tmpl = tmpl
	var prior *State
	if exists {
		prior, err = r.committedState(store)
		if err != nil {
			store.Close()
			return err
		}
	}
	if prior == nil && r.cfg.Resume {
		if store != nil {
			store.Close()
		}
		return badInput("run 'rgit list' to see the sessions here, or drop --resume to start one", "no session named %q to resume", r.name)
	}
	if prior != nil && r.cfg.Topic != "" && prior.OriginalTopic != r.cfg.Topic {
		store.Close()
		return badInput("pick another --name, or resume it with: rgit research --name "+r.name+" --resume",
			"session %q already researches %q", r.name, prior.OriginalTopic)
	}
	if prior == nil && r.cfg.NeedsConfirmation() {
		if err := r.confirm(); err != nil {
			if store != nil {
				store.Close()
			}
			return err
		}
	}
	if !exists {
		var created bool
		store, created, err = gitstore.OpenOrInit(dir)
		if err != nil {
			return fmt.Errorf("init repository: %w", err)
		}
		if created {
			r.notice(fmt.Sprintf("initialised a git repository in %s", store.Root()))
		}
	}
	r.store, r.root = store, store.Root()
	r.ws = filepath.Join(r.root, ".research", r.name)
	r.reports = filepath.Join(r.root, "reports", r.name)
	if err := store.AddExclude("/.research/"); err != nil {
		store.Close()
		return fmt.Errorf("exclude workspace: %w", err)
	}
	r.lock, err = acquireLock(r.ws, r.cfg.ForceResume, r.notice)
	if err != nil {
		store.Close()
		return err
	}
	if err := r.openSession(ctx, prior); err != nil {
		r.lock.release()
		store.Close()
		return err
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

func (r *run) notice(msg string) {
	r.deps.Reporter.Report(Event{Kind: EventNotice, Message: msg})
}

func (r *run) warn(msg string) {
	r.deps.Reporter.Report(Event{Kind: EventWarning, Message: msg})
}

package phases

import (
	"context"
	"errors"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/phases/plan"
)

// Deps are what Research needs from outside: cmd wires the real ones, tests
// pass fakes. Every field but NewAgent may be left nil.
type Deps struct {
	// NewAgent builds an agent from a backend:model spec.
	NewAgent func(spec string) (agents.Agent, error)
	Reporter Reporter
	// Confirm asks the user a yes/no question; nil means there is no terminal.
	Confirm func(question string) (bool, error)
	// Resolve names the agent "auto" stands for; nil leaves "auto" to NewAgent.
	Resolve AgentResolver
	// Clock tells the time; nil is SystemClock.
	Clock Clock
	// OpenStore opens the repository; nil is gitstore.
	OpenStore OpenStore
}

func (d Deps) withDefaults() Deps {
	if d.Reporter == nil {
		d.Reporter = ReporterFunc(func(Event) {})
	}
	if d.Clock == nil {
		d.Clock = SystemClock
	}
	if d.OpenStore == nil {
		d.OpenStore = openGit
	}
	return d
}

// run is one process working on one session. It owns the session's state
// and plan; the callRunner runs agent calls and the committer writes
// commits, so run itself only decides and applies.
type run struct {
	cfg     Config
	deps    Deps
	clock   Clock
	lay     layout.Layout
	store   Store
	lock    *lock
	calls   *callRunner
	commits *committer
	state   *State
	plan    *plan.Plan
	started time.Time
	// events are noted in the next commit's body: fallback switches and
	// recovered failures, so the history says when and why.
	events []string
	merged merged
	// verdict is the review verdict the next done event reports.
	verdict lastVerdict
	path    critPath // the longest chain of dependent calls so far
	// sources are the workspace's source records, read once and kept as
	// results add to them, so a research dispatch costs no reading of
	// every record the session has gathered (nil: not read yet).
	sources map[string]agents.Source
	// wrote are the source records written since the last commit, which
	// it names to the store: of the sealed sources/ only these and new
	// files are read (layout.Sealed).
	wrote []string
	// stop cancels the run's context, agents included, with a cause: the
	// session lock was taken over (fence.go).
	stop context.CancelCauseFunc
}

// merged says where this run merged the report.
type merged struct{ target, commit string }

// Research runs, or resumes, the session cfg describes until its report is
// merged, a limit is reached, or ctx is cancelled. Bad input is reported as
// *BadInputError before anything is written.
func Research(ctx context.Context, cfg Config, deps Deps) (Summary, error) {
	deps = deps.withDefaults()
	deps.Reporter = &syncReporter{r: deps.Reporter}
	if err := cfg.normalizeCouncil(); err != nil {
		return Summary{}, err
	}
	notices, err := cfg.Normalize()
	if err != nil {
		return Summary{}, err
	}
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	r := &run{cfg: cfg, deps: deps, clock: deps.Clock, lay: layout.New("", cfg.Name), started: deps.Clock.Now(), stop: stop}
	for _, n := range notices {
		r.notice(n)
	}
	if err := r.prepare(ctx); err != nil {
		return Summary{}, err
	}
	defer r.store.Close()
	defer r.lock.release()
	r.deps.Reporter.Report(Event{Kind: EventStarted, Message: "session " + r.cfg.Name + " on " + r.lay.Branch() + ", run " + r.lock.info.Token})
	r.warnUnpriced()
	err = r.runCouncil(ctx)
	if errors.Is(err, errMemberOnly) {
		return r.summary(), nil
	}
	if err == nil {
		err = r.loop(ctx)
	}
	if err != nil {
		if cause := context.Cause(ctx); errors.Is(cause, ErrLocked) {
			return r.summary(), cause
		}
		if ctx.Err() != nil {
			return r.summary(), ErrCancelled
		}
		return r.summary(), err
	}
	return r.summary(), nil
}

func (r *run) notice(msg string) {
	r.deps.Reporter.Report(Event{Kind: EventNotice, Message: msg})
}

func (r *run) warn(msg string) {
	r.deps.Reporter.Report(Event{Kind: EventWarning, Message: msg})
}

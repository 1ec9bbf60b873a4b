package phases

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/phases/plan"
)

// ForkConfig is what `rgit fork` asks: a new session Name that starts
// from a commit of session Source, with some settings changed. A nil
// pointer or empty value keeps the source's.
type ForkConfig struct {
	Dir     string // where rgit was started
	Source  string // the session forked
	At      string // a revision of Source (see history.resolve); "" = its newest commit
	AtTopic string // fork right before this topic was first researched
	Name    string // the new session

	Question      string // new wording of the question
	Model         string
	ReviewModel   string
	MockMode      bool
	Fallback      []string
	Breadth       *int
	Depth         *int
	MaxIterations int
	TimeBudget    time.Duration
	Timeout       time.Duration
}

// ForkResult says what Fork made.
type ForkResult struct {
	Name, Branch     string
	Source, SourceAt string // the source session and the fork point's commit
	Head             string // the fork's first commit, whose parent is SourceAt
	Stage            Stage
	Counts           plan.Counts
	Pending          []string // topics the fork will research, in plan order
}

// Fork starts session cfg.Name from a commit of cfg.Source: a commit on
// research/<Name> whose parent is that commit and whose tree holds the
// source's session files renamed to the new session, with its state
// changed as asked. The source is only read. Research resumes the fork.
// Bad input is refused before anything is written.
func Fork(ctx context.Context, cfg ForkConfig, deps Deps) (ForkResult, error) {
	deps = deps.withDefaults()
	if err := cfg.validate(); err != nil {
		return ForkResult{}, err
	}
	dir := cfg.Dir
	if dir == "" {
		dir = "."
	}
	store, err := deps.OpenStore(dir)
	if errors.Is(err, gitstore.ErrNotRepository) {
		return ForkResult{}, badInput("run rgit fork inside the repository of the session", "not a git repository: %s", dir)
	} else if err != nil {
		return ForkResult{}, fmt.Errorf("open repository: %w", err)
	}
	defer store.Close()
	f := &forker{cfg: cfg, deps: deps, store: store, lay: layout.New(store.Root(), cfg.Name)}
	if err := f.prepare(); err != nil {
		return ForkResult{}, err
	}
	return f.write(ctx)
}

func (cfg *ForkConfig) validate() error {
	for _, n := range []string{cfg.Source, cfg.Name} {
		if err := ValidateName(n); err != nil {
			return err
		}
	}
	if cfg.Source == cfg.Name {
		return badInput("name the fork with --as NEW, another name", "a fork needs a name of its own, not %q", cfg.Name)
	}
	if cfg.At != "" && cfg.AtTopic != "" {
		return badInput("pass one of them", "--at and --at-topic both name the fork point")
	}
	cfg.Question = strings.TrimSpace(cfg.Question)
	if strings.ContainsAny(cfg.Question, "\x00") {
		return badInput("remove control characters from the question", "question contains a NUL byte")
	}
	switch {
	case cfg.Breadth != nil && (*cfg.Breadth < 1 || *cfg.Breadth > 50):
		return badInput("pass --breadth from 1 to 50", "invalid --breadth %d", *cfg.Breadth)
	case cfg.Depth != nil && (*cfg.Depth < 0 || *cfg.Depth > 10):
		return badInput("pass --depth from 0 to 10", "invalid --depth %d", *cfg.Depth)
	case cfg.MaxIterations < 0:
		return badInput("pass a positive --max-iterations", "invalid --max-iterations %d", cfg.MaxIterations)
	case cfg.Timeout < 0 || cfg.TimeBudget < 0:
		return badInput("pass a positive number of seconds or minutes", "negative --timeout or --time")
	}
	return nil
}

// forker is one fork being made: prepare reads and checks everything, write
// writes.
type forker struct {
	cfg   ForkConfig
	deps  Deps
	store Store
	lay   layout.Layout // the new session's

	src      *history
	at       int               // the fork point's index in src
	files    map[string][]byte // workspace-relative path -> content
	state    *State
	plan     *plan.Plan
	changes  []string // what the fork changed, for the commit body
	redoRest bool     // the source had finished its research at the fork point
}

// prepare resolves the fork point and builds the new session's files.
func (f *forker) prepare() error {
	if _, err := f.store.Head(f.lay.Branch()); err == nil {
		return badInput("pick another name with --as, or resume it: rgit research --name "+f.cfg.Name+" --resume",
			"session %q already exists", f.cfg.Name)
	} else if !errors.Is(err, gitstore.ErrNotFound) {
		return fmt.Errorf("read session branch: %w", err)
	}
	if entries, err := os.ReadDir(f.lay.Workspace()); err == nil && len(entries) > 0 {
		return badInput("remove it (no session branch owns it) or pick another name with --as",
			"%s holds files of an earlier session %q", f.lay.WorkspaceTree(), f.cfg.Name)
	}
	if _, err := f.store.Head(layout.Branch(f.cfg.Source)); errors.Is(err, gitstore.ErrNotFound) {
		// Only read here: a session fetched from another clone is not
		// tracked, since bad input must leave no ref behind.
		return badInput("run 'rgit list' to see the sessions here; for one fetched from another clone, first: git branch "+
			layout.Branch(f.cfg.Source)+" origin/"+layout.Branch(f.cfg.Source), "no session named %q", f.cfg.Source)
	}
	src, err := readHistory(f.store, f.cfg.Source)
	if err != nil {
		return err
	}
	f.src = src
	if f.at, err = f.forkPoint(); err != nil {
		return err
	}
	return f.build()
}

// forkPoint is the index of the commit the fork starts from.
func (f *forker) forkPoint() (int, error) {
	if f.cfg.AtTopic == "" {
		return f.src.resolve(f.cfg.At)
	}
	// The oldest research commit of the topic; the fork starts on its parent.
	first := -1
	for i, c := range f.src.commits {
		if f.src.owner[i] != "" && Phase(c.Trailer(string(TrailerPhase))) == PhaseResearch &&
			strings.EqualFold(strings.TrimSpace(c.Trailer(string(TrailerTopic))), strings.TrimSpace(f.cfg.AtTopic)) {
			first = i
		}
	}
	if first < 0 {
		return 0, badInput("run 'rgit log --name "+f.cfg.Source+"' to see the topics researched",
			"topic %q was never researched on %s", f.cfg.AtTopic, f.src.branch)
	}
	if first+1 >= len(f.src.commits) || f.src.owner[first+1] == "" {
		return 0, fmt.Errorf("fork at topic %q: its first research commit has no session commit before it", f.cfg.AtTopic)
	}
	return first + 1, nil
}

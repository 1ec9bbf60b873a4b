package phases

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases/layout"
)

// validate checks, reading only, everything about this run that can fail
// on the user's input or environment: the session branch's name is free,
// the target branch exists (or HEAD names one a report belongs on), the
// history is deep enough to merge, the corpus holds text, and every agent
// of the session resolves. prepare writes nothing until it passed, so bad
// input leaves refs, files, .git/info/exclude and .git/rgit/ as they were.
// For a new session it settles the target branch in r.cfg.MergeInto.
func (r *run) validate(store Store, prior *State) error {
	if prior == nil {
		if err := checkFree(store, r.lay.Branch()); err != nil {
			return err
		}
	}
	if err := r.checkTarget(store, prior); err != nil {
		return err
	}
	for _, dir := range r.cfg.Corpus {
		if err := checkCorpus(dir); err != nil {
			return err
		}
	}
	settings := newSettings(r.cfg, r.cfg.MergeInto)
	if prior != nil {
		settings, _ = resumeSettings(prior.Settings, r.cfg)
	}
	// The agents "auto" stands for are the ones the run builds; the run
	// says which when it records them.
	return r.calls.agents.resolve(settings.resolved(r.deps.Resolve, func(string) {}))
}

// checkFree refuses a session branch another ref is in the way of.
func checkFree(store Store, branch string) error {
	err := store.CheckBranchName(branch)
	if errors.Is(err, gitstore.ErrRefNameConflict) {
		return badInput("pick another --name, or rename the branch in the way with 'git branch -m'", "%v", err)
	}
	if err != nil {
		return fmt.Errorf("check branch %s: %w", branch, err)
	}
	return nil
}

// checkTarget settles where the report goes: --merge-into must name a
// branch that exists; without it HEAD must be on a branch that is not
// itself a session. A merge needs full history.
func (r *run) checkTarget(store Store, prior *State) error {
	hint := "pass --merge-into BRANCH to merge the report into a branch, or --no-merge to leave it on " + r.lay.Branch()
	if t := r.cfg.MergeInto; t != "" {
		err := store.CheckMergeTarget(t)
		if errors.Is(err, gitstore.ErrNotFound) {
			return badInput("name an existing local branch (see 'git branch'), or pass --no-merge", "no branch %q to merge the report into", t)
		}
		if err != nil {
			return fmt.Errorf("check --merge-into %s: %w", t, err)
		}
	} else if prior == nil {
		cur, err := store.CurrentBranch()
		if err != nil {
			return fmt.Errorf("read HEAD: %w", err)
		}
		_, onSession := layout.NameOf(cur)
		switch {
		case r.cfg.NoMerge:
			if onSession {
				cur = ""
			}
		case cur == "":
			return badInput(hint, "HEAD is detached, so the report has no branch to be merged into")
		case onSession:
			return badInput(hint, "HEAD is on the session branch %s, not a branch to merge a report into", cur)
		}
		r.cfg.MergeInto = cur
	}
	if r.cfg.NoMerge {
		return nil
	}
	shallow, err := store.IsShallow()
	if err != nil {
		return fmt.Errorf("check shallow clone: %w", err)
	}
	if shallow {
		return badInput("run 'git fetch --unshallow' first, or pass --no-merge to leave the report on "+r.lay.Branch(),
			"this repository is a shallow clone: merging the report needs its full history")
	}
	return nil
}

// resolve builds every agent the session's roles and fallback chain name,
// so that an agent that is not installed, a spec that does not parse or a
// setting it reads from the environment that is wrong is bad input now,
// not a failure after the first commit. The agents are kept for the run.
func (p *agentPool) resolve(s Settings) error {
	specs := append([]string{s.Model, s.ReviewModel}, s.Fallback...)
	for i, spec := range specs {
		_, _, err := p.get(spec)
		if err != nil && spec == "auto" && len(s.Corpus) > 0 && errors.Is(err, agents.ErrNotInstalled) {
			// A session over a corpus, resumed without --corpus: the
			// offline researcher reads the session's corpus from its brief.
			err = p.alias("auto", "local")
		}
		if err == nil {
			continue
		}
		msg, hint := err.Error(), "name agents as backend:model (see 'rgit agents' for what is installed), or pass --mock-mode"
		var h interface {
			error
			Hint() string
		}
		switch {
		case errors.As(err, &h):
			msg, hint = h.Error(), h.Hint()
			if i == 1 && s.Model != "auto" { // only the reviewer was left to auto: say so
				msg = strings.Replace(msg, "--model auto", "--review-model auto", 1)
				hint = "name the reviewer too, for example --review-model " + s.Model + "\n" + hint
			}
		case errors.Is(err, agents.ErrNotInstalled):
			hint = "install it, or pass --model and --review-model with agents 'rgit agents' lists as found"
		case strings.HasPrefix(spec, "mock"):
			hint = "fix or unset RGIT_MOCK_FAIL, RGIT_MOCK_DELAY and RGIT_MOCK_COUNT"
		}
		return &BadInputError{Msg: msg, Hint: hint}
	}
	return nil
}

// alias makes spec use the agent of another spec.
func (p *agentPool) alias(spec, to string) error {
	a, _, err := p.get(to)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.made[spec] = a
	return nil
}

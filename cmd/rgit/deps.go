package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/registry"
	"github.com/rgit-dev/rgit/phases"
	"github.com/rgit-dev/rgit/phases/layout"
)

// newDeps resolves the agents (printing which were chosen and why) and
// wires progress rendering (and the reporters in also), confirmation and
// the clock.
func newDeps(c *cli.Context, io *IO, cfg *phases.Config, clock phases.Clock, also ...phases.Reporter) (phases.Deps, error) {
	var rep phases.Reporter = researchProgress(c, io, clock)
	if len(also) > 0 {
		rep = append(teeReporter{rep}, also...)
	}
	wd, err := os.Getwd()
	if err != nil {
		return phases.Deps{}, fmt.Errorf("find working directory: %w", err)
	}
	cfg.Dir = wd
	opts := registry.Options{Corpus: absAll(cfg.Corpus), CacheDir: layout.Cache(wd, "local"), Getenv: os.Getenv}
	cfg.Corpus = opts.Corpus
	if c.Bool("test") && len(cfg.Council.Specs) == 0 { // a council's --test is councilConfig's
		was := *cfg
		// Keep the backends the user has (or auto picks) and swap in the
		// seed's cheap model for each; the seed's pair when both are installed.
		cfg.Model, cfg.ReviewModel = testModel(cfg.Model, opts, registry.Auto), testModel(cfg.ReviewModel, opts, registry.AutoReview)
		found := foundBackends(opts)
		if m, r := registry.TestModels(); found[backendOf(m)] && found[backendOf(r)] {
			cfg.Model, cfg.ReviewModel = m, r
		}
		cfg.Fallback = testFallback(cfg.Fallback, opts)
		rep.Report(phases.Event{Kind: phases.EventNotice, Message: testNotice(was, *cfg)})
	}
	for _, spec := range append([]string{cfg.Model, cfg.ReviewModel}, cfg.Fallback...) {
		if spec == "" || spec == "auto" || cfg.MockMode {
			continue
		}
		if _, _, err := registry.Parse(spec); err != nil {
			return phases.Deps{}, usagef("name agents as backend:model, for example claude:claude-opus-4-6 or local", "%v", err)
		}
	}
	holds := map[string]*agents.Hold{} // one per backend: rate limits are shared (phases builds agents one at a time)
	newAgent := func(spec string) (agents.Agent, error) {
		a, _, err := registry.New(spec, opts)
		if err != nil {
			return nil, err
		}
		if holds[a.Name()] == nil {
			holds[a.Name()] = &agents.Hold{}
		}
		return agents.WithBackoff(a, agents.BackoffPolicy{Hold: holds[a.Name()]}, func(wait time.Duration, err error) {
			rep.Report(phases.Event{Kind: phases.EventWait, Agent: a.Name(), Message: fmt.Sprintf("rate limited; waiting %s (%s)", wait.Round(time.Second), phases.Redact(err.Error()))})
		}), nil
	}
	return phases.Deps{NewAgent: newAgent, Reporter: rep, Confirm: confirmer(io), Clock: clock, Resolve: autoResolver(opts)}, nil
}

func absAll(dirs []string) []string {
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		if a, err := filepath.Abs(d); err == nil {
			out = append(out, a)
		}
	}
	return out
}

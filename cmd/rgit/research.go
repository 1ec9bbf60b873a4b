package main

import (
	"bufio"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/phases"
)

func researchCommand(io *IO) *cli.Command {
	return &cli.Command{
		Name:      "research",
		Usage:     "research a topic: plan, research and review each topic, synthesize a cited report",
		ArgsUsage: `"topic or question"`,
		Description: "Every phase is a commit on research/<name>; the report is merged into the branch HEAD\n" +
			"pointed at (or --merge-into). Flags may come before or after the topic.\n\n" +
			"Exit status: 0 done, 1 failure, 2 bad input, 3 session locked, 130 cancelled (resumable).\n\n" +
			gitConfigHelp + profileHelp(),
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "name", Usage: "session name (default: a slug of the topic)", EnvVars: []string{"RGIT_NAME"}},
			&cli.IntFlag{Name: "breadth", Value: 3, Usage: "at most this many subtopics per topic (and depth-0 topics)"},
			&cli.IntFlag{Name: "depth", Value: 3, Usage: "deepest subtopic level (0 = no subtopics)"},
			&cli.IntFlag{Name: "max-iterations", Usage: "RESEARCH-REVIEW cycles (default and minimum: breadth^(depth+1)+5)"},
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "do not ask to confirm more than 20 iterations"},
			&cli.StringFlag{Name: "model", Value: "auto", Usage: "research agent, backend:model", EnvVars: []string{"RGIT_MODEL"}},
			&cli.StringFlag{Name: "review-model", Value: "auto", Usage: "review agent, backend:model", EnvVars: []string{"RGIT_REVIEW_MODEL"}},
			&cli.StringFlag{Name: "fallback", Usage: "comma-separated agents to fall back to, backend:model,...", EnvVars: []string{"RGIT_FALLBACK"}},
			&cli.Float64Flag{Name: "time", Usage: "wall-clock budget in minutes (a synthesis reserve is kept)"},
			&cli.StringSliceFlag{Name: "corpus", Usage: "directory the local researcher reads (repeatable; default: the repository's tracked files)"},
			&cli.BoolFlag{Name: "resume", Usage: "resume the session from its branch head"},
			&cli.BoolFlag{Name: "force-resume", Usage: "remove any lock (saying whose it was) and resume"},
			&cli.BoolFlag{Name: "mock-mode", Usage: "use the deterministic mock agent (no AI calls)"},
			&cli.BoolFlag{Name: "test", Usage: "cheap models for every role, at most 2 research passes per topic"},
			&cli.BoolFlag{Name: "reorganize-archive", Usage: "write the session's history as plain files under .research/<name>/archive/<run>/"},
			&cli.StringFlag{Name: "merge-into", Usage: "branch to merge the report into (default: the branch HEAD points at)"},
			&cli.BoolFlag{Name: "no-merge", Usage: "leave the report on research/<name>"},
		}, slices.Concat(progressFlags(), detachFlags(), jobsFlags(), seedFlags(), councilFlags(), budgetFlags())...),
		Action: func(c *cli.Context) error {
			if err := applyGitConfig(c); err != nil {
				return err
			}
			if c.Bool("detach") {
				return detach(c, io)
			}
			cfg, err := researchConfig(c)
			if err != nil {
				return err
			}
			clock, err := clockFrom(io.getenv)
			if err != nil {
				return err
			}
			rec := newRunRecord(c, io, cfg, clock)
			deps, err := newDeps(c, io, &cfg, clock, rec)
			if err != nil {
				return err
			}
			start := clock.Now()
			startProgress(deps.Reporter)
			sum, err := phases.Research(c.Context, cfg, deps)
			closeProgress(deps.Reporter)
			printSummary(io, sum, err, clock.Now().Sub(start))
			rec.finish(sum, err)
			return err
		},
	}
}

// researchConfig turns flags and arguments into a Config; it touches nothing.
func researchConfig(c *cli.Context) (phases.Config, error) {
	args := c.Args().Slice()
	if len(args) > 1 {
		return phases.Config{}, usagef(`quote the topic: rgit research "your question"`, "expected one topic, got %d arguments", len(args))
	}
	cfg := phases.Config{
		Name: c.String("name"), Breadth: c.Int("breadth"), Depth: c.Int("depth"), MaxIterations: c.Int("max-iterations"),
		Model: c.String("model"), ReviewModel: c.String("review-model"),
		TimeBudget: time.Duration(c.Float64("time") * float64(time.Minute)), Resume: c.Bool("resume") || c.Bool("force-resume"),
		ForceResume: c.Bool("force-resume"), MockMode: c.Bool("mock-mode"), Reorganize: c.Bool("reorganize-archive"),
		MergeInto: c.String("merge-into"), NoMerge: c.Bool("no-merge"), Yes: c.Bool("yes"), Corpus: c.StringSlice("corpus"),
	}
	if len(args) == 1 {
		cfg.Topic = args[0]
	}
	if err := seedConfig(c, &cfg); err != nil {
		return cfg, err
	}
	if err := budgetConfig(c, &cfg); err != nil {
		return cfg, err
	}
	if c.Float64("time") < 0 {
		return cfg, usagef("pass --time in minutes", "invalid --time %g", c.Float64("time"))
	}
	for _, f := range strings.Split(c.String("fallback"), ",") {
		if f = strings.TrimSpace(f); f != "" {
			cfg.Fallback = append(cfg.Fallback, f)
		}
	}
	if c.Bool("test") {
		cfg.MaxPerTopic = 2
	}
	jobs, err := jobsFrom(c)
	cfg.Jobs = jobs
	if err != nil {
		return cfg, err
	}
	return cfg, councilConfig(c, &cfg)
}

// confirmer asks on the terminal; nil when there is none.
func confirmer(io *IO) func(string) (bool, error) {
	if !io.IsTTY {
		return nil
	}
	return func(q string) (bool, error) {
		fmt.Fprintf(io.Err, "%s [y/N] ", q)
		line, err := bufio.NewReader(io.In).ReadString('\n')
		if err != nil && line == "" {
			return false, nil
		}
		a := strings.ToLower(strings.TrimSpace(line))
		return a == "y" || a == "yes", nil
	}
}

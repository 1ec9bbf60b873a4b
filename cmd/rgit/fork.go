package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/phases"
)

func forkCommand(io *IO) *cli.Command {
	return &cli.Command{
		Name:      "fork",
		Usage:     "start a new session from any commit of another: its research so far, new settings",
		ArgsUsage: `--name SRC --as NEW ["new wording of the question"]`,
		Description: "The fork's first commit on research/NEW has the chosen commit of SRC as its parent, so\n" +
			"'rgit log --name NEW' shows the shared history (marked in the SESSION column). Topics\n" +
			"researched after that point are pending again; a fork of finished research synthesizes\n" +
			"its own report. SRC is only read. Continue with: rgit research --name NEW --resume\n\n" +
			"Exit status: 0 forked, 1 failure, 2 bad input (nothing written), 3 NEW is locked.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "name", Usage: "the session to fork (SRC)", EnvVars: []string{"RGIT_NAME"}},
			&cli.StringFlag{Name: "as", Usage: "name of the new session (NEW)"},
			&cli.StringFlag{Name: "at", Usage: "fork at this commit of SRC: a hash (or prefix), HEAD~N, research/SRC~N (default: its head)"},
			&cli.StringFlag{Name: "at-topic", Usage: "fork right before this topic was first researched"},
			&cli.IntFlag{Name: "breadth", Usage: "new breadth (default: SRC's)"},
			&cli.IntFlag{Name: "depth", Usage: "new depth (default: SRC's)"},
			&cli.IntFlag{Name: "max-iterations", Usage: "new iteration limit (at least breadth^(depth+1)+5)"},
			&cli.StringFlag{Name: "model", Usage: "research agent, backend:model (default: SRC's)"},
			&cli.StringFlag{Name: "review-model", Usage: "review agent, backend:model (default: SRC's)"},
			&cli.StringFlag{Name: "fallback", Usage: "comma-separated agents to fall back to"},
			&cli.BoolFlag{Name: "mock-mode", Usage: "use the deterministic mock agent for every role"},
			&cli.IntFlag{Name: "timeout", Usage: "seconds per agent call (default: SRC's)"},
			&cli.Float64Flag{Name: "time", Usage: "wall-clock budget in minutes for each run of the fork"},
		},
		Action: func(c *cli.Context) error {
			cfg, err := forkConfig(c)
			if err != nil {
				return err
			}
			clock, err := clockFrom(io.getenv)
			if err != nil {
				return err
			}
			res, err := phases.Fork(c.Context, cfg, phases.Deps{Clock: clock})
			if err != nil {
				return err
			}
			printFork(io, res)
			return nil
		},
	}
}

// forkConfig turns flags and arguments into a ForkConfig; it touches nothing.
func forkConfig(c *cli.Context) (phases.ForkConfig, error) {
	args := c.Args().Slice()
	if len(args) > 1 {
		return phases.ForkConfig{}, usagef(`quote the question: rgit fork --name SRC --as NEW "new question"`, "expected at most one question, got %d arguments", len(args))
	}
	if c.String("name") == "" || c.String("as") == "" {
		return phases.ForkConfig{}, usagef("rgit fork --name SRC --as NEW", "fork needs the source session (--name) and the new one's name (--as)")
	}
	wd, err := os.Getwd()
	if err != nil {
		return phases.ForkConfig{}, fmt.Errorf("find working directory: %w", err)
	}
	cfg := phases.ForkConfig{Dir: wd, Source: c.String("name"), Name: c.String("as"), At: c.String("at"), AtTopic: c.String("at-topic"),
		Model: c.String("model"), ReviewModel: c.String("review-model"), MockMode: c.Bool("mock-mode"),
		MaxIterations: c.Int("max-iterations"), Timeout: time.Duration(c.Int("timeout")) * time.Second,
		TimeBudget: time.Duration(c.Float64("time") * float64(time.Minute))}
	if len(args) == 1 {
		cfg.Question = args[0]
	}
	if c.IsSet("breadth") {
		b := c.Int("breadth")
		cfg.Breadth = &b
	}
	if c.IsSet("depth") {
		d := c.Int("depth")
		cfg.Depth = &d
	}
	if c.IsSet("timeout") && c.Int("timeout") <= 0 {
		return cfg, usagef("pass --timeout in seconds, at least 1", "invalid --timeout %d", c.Int("timeout"))
	}
	if c.Float64("time") < 0 {
		return cfg, usagef("pass --time in minutes", "invalid --time %g", c.Float64("time"))
	}
	for _, f := range strings.Split(c.String("fallback"), ",") {
		if f = strings.TrimSpace(f); f != "" {
			cfg.Fallback = append(cfg.Fallback, f)
		}
	}
	return cfg, nil
}

func printFork(io *IO, r phases.ForkResult) {
	w := io.Out
	fmt.Fprintf(w, "Forked %s at %s as %s\n", r.Source, short(r.SourceAt), r.Name)
	fmt.Fprintf(w, "  branch:       %s (first commit %s, parent %s)\n", r.Branch, short(r.Head), short(r.SourceAt))
	fmt.Fprintf(w, "  stage:        %s, %d of %d topics complete\n", r.Stage, r.Counts.Complete, r.Counts.Total)
	if len(r.Pending) > 0 {
		fmt.Fprintf(w, "  to research:  %s\n", strings.Join(r.Pending, ", "))
	}
	fmt.Fprintf(w, "  continue:     rgit research --name %s --resume\n", r.Name)
}

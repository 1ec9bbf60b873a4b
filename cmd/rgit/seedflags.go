package main

import (
	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/phases"
)

// seedFlags are research's flags from seeds 001 and 003: phase-aware
// timeouts.
func seedFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "timeout", Usage: "agent call timeout: `20m` for every phase, or per phase, research=45m,review=3m; a bare number is seconds " +
			"(default: plan 5m, research 30m, review 5m, synthesize 20m, final-review 10m-15m by report size, revise 15m)"},
	}
}

// seedConfig reads seedFlags into cfg; it touches nothing.
func seedConfig(c *cli.Context, cfg *phases.Config) error {
	if c.IsSet("timeout") {
		all, per, err := phases.ParseTimeouts(c.String("timeout"))
		if err != nil {
			return err
		}
		cfg.Timeout, cfg.PhaseTimeouts = all, per
	}
	return nil
}

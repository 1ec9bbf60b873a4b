package main

import (
	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/phases"
)

// seedFlags are research's flags from seeds 001 and 003: phase-aware
// timeouts and the two-tier retry.
func seedFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "timeout", Usage: "agent call timeout: `20m` for every phase, or per phase, research=45m,review=3m; a bare number is seconds " +
			"(default: plan 5m, research 30m, review 5m, synthesize 20m, final-review 10m-15m by report size, revise 15m)"},
		&cli.IntFlag{Name: "max-fix-attempts", Value: 3, Usage: "tier 1: retries of a failed phase on one agent, with the recovery prompt"},
		&cli.IntFlag{Name: "max-topic-restarts", Value: 1, Usage: "tier 2: restarts of a topic from a clean slate once its fix attempts are spent, before the fallback agent"},
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
	for _, f := range []struct {
		name string
		into *int
	}{{"max-fix-attempts", &cfg.MaxFixAttempts}, {"max-topic-restarts", &cfg.MaxTopicRestarts}} {
		n := c.Int(f.name)
		if n < 0 || n > 20 {
			return usagef("pass --"+f.name+" from 0 to 20", "invalid --%s %d", f.name, n)
		}
		if c.IsSet(f.name) {
			*f.into = none(n)
		}
	}
	return nil
}

// none maps a count flag to Config's convention: 0 there is the default,
// so "none" is -1.
func none(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

package main

import (
	"cmp"
	"fmt"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/agents/registry"

	"github.com/rgit-dev/rgit/phases"
)

// seedFlags are research's flags from seeds 001 and 003: phase-aware
// timeouts and the two-tier retry.
func seedFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "timeout", Usage: "agent call timeout: `20m` for every phase, or per phase, research=45m,review=3m; a bare number is seconds " +
			"(default: plan 5m, research 30m, review 5m, synthesize 20m, final-review 10m-15m by report size, revise 15m)"},
		&cli.StringFlag{Name: "profile", Usage: "quick, standard or thorough: breadth, depth, fix attempts, topic restarts, time, cost and token budgets in one word (table below; default: git config research.profile, else standard)"},
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
	if cfg.Resume && !c.IsSet("profile") {
		return nil // a resumed session keeps its own settings
	}
	wd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("find working directory: %w", err)
	}
	return phases.ApplyProfile(cfg, c.String("profile"), c.IsSet, phases.GitSettings(wd))
}

// none maps a count flag to Config's convention: 0 there is the default,
// so "none" is -1.
func none(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// testFallback gives each fallback agent its backend's cheap model.
func testFallback(chain []string, opts registry.Options) []string {
	out := make([]string, 0, len(chain))
	for _, spec := range chain {
		out = append(out, testModel(spec, opts, registry.Auto))
	}
	return out
}

// testNotice says what --test changed, each setting as "was -> now".
func testNotice(was, now phases.Config) string {
	var parts []string
	change := func(what, a, b string) {
		a = cmp.Or(a, "auto")
		if a == b {
			parts = append(parts, fmt.Sprintf("%s %s", what, b))
			return
		}
		parts = append(parts, fmt.Sprintf("%s %s -> %s", what, a, b))
	}
	change("research", was.Model, now.Model)
	change("review", was.ReviewModel, now.ReviewModel)
	if !slices.Equal(was.Fallback, now.Fallback) {
		change("fallback", strings.Join(was.Fallback, ","), strings.Join(now.Fallback, ","))
	}
	return "--test: " + strings.Join(parts, ", ") + fmt.Sprintf(", at most %d passes per topic", now.MaxPerTopic)
}

// profileHelp is the profiles' table for research's --help.
func profileHelp() string {
	return "\n\nProfiles (--profile): a flag wins over git config research.<setting> (breadth, depth,\n" +
		"maxFixAttempts, maxTopicRestarts, time, maxCost, maxTokens), which wins over the\n" +
		"profile (--profile, else research.profile, else standard). Budgets count the whole\n" +
		"session; research stops early enough to keep a synthesis reserve for the report.\n\n" + phases.ProfileTable()
}

// whyFlag adds the reviews' loop decisions to `rgit log`.
var whyFlag = &cli.BoolFlag{Name: "why", Usage: "add each review's loop decision: why the loop went on or stopped"}

// printWhy is `rgit log --why`: the usual rows and a DECISION column.
func printWhy(io *IO, rows []phases.PhaseRow) error {
	tw := tabwriter.NewWriter(io.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "COMMIT\tPHASE\tITER\tTOPIC\tVERDICT\tDECISION")
	for i := len(rows) - 1; i >= 0; i-- {
		r := rows[i]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", short(r.Hash), r.Phase, dash(r.Iteration), dash(r.Topic), dash(string(r.Verdict)), dash(r.Decision))
	}
	return tw.Flush()
}

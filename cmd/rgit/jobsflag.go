package main

import (
	"context"
	"os/exec"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
)

// jobsFlags are research's flags for running topic calls at once.
func jobsFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, EnvVars: []string{"RGIT_JOBS"},
			Usage: "agent calls in flight at most (default: git config research.jobs, else 4 for CLI and HTTP agents, one per CPU for local, 1 for mock)"},
	}
}

// jobsFrom reads --jobs (or RGIT_JOBS), else git config research.jobs;
// 0 leaves the choice to the session's backends.
func jobsFrom(c *cli.Context) (int, error) {
	if c.IsSet("jobs") {
		n := c.Int("jobs")
		if n < 1 {
			return 0, usagef("pass --jobs 1 or more", "invalid --jobs %d", n)
		}
		return n, nil
	}
	out, err := exec.CommandContext(context.Background(), "git", "config", "--get", "research.jobs").Output()
	if err != nil {
		return 0, nil // unset, or no git: the default
	}
	v := strings.TrimSpace(string(out))
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, usagef("set research.jobs to 1 or more: git config research.jobs 4", "invalid git config research.jobs %q", v)
	}
	return n, nil
}

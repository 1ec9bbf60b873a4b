package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// run builds the app, runs it on args and returns the exit status. It is
// main without os.Exit, so tests can call it with buffers.
func run(ctx context.Context, args []string, io *IO) int {
	app := newApp(io)
	err := app.RunContext(ctx, reorderArgs(app, args))
	if err != nil {
		fmt.Fprintf(io.Err, "rgit: error: %s\n", safe(err.Error()))
		if hint := hintFor(err); hint != "" {
			for _, line := range strings.Split(hint, "\n") {
				fmt.Fprintf(io.Err, "rgit: hint: %s\n", safe(line))
			}
		}
	}
	return exitCode(err)
}

func newApp(io *IO) *cli.App {
	return &cli.App{
		Name:    "rgit",
		Usage:   "deep research as a git-native loop",
		Version: version,
		Description: "rgit plans a breadth-first tree of topics, has an AI agent research each one and a\n" +
			"reviewer accept or reject it, then synthesizes a cited report. Every phase is a commit\n" +
			"on the branch research/<name>.\n\n" +
			"Exit status: 0 ok, 1 failure, 2 bad input, 3 session locked, 130 cancelled.",
		Reader:                 io.In,
		Writer:                 io.Out,
		ErrWriter:              io.Err,
		HideHelpCommand:        false,
		UseShortOptionHandling: false,
		// The library must never call os.Exit: exit codes are decided in run.
		ExitErrHandler: func(*cli.Context, error) {},
		Commands:       commands(io),
	}
}

func commands(io *IO) []*cli.Command {
	return []*cli.Command{
		researchCommand(io),
		statusCommand(io),
		logCommand(io),
		listCommand(io),
		cancelCommand(io),
		agentsCommand(io),
		integrateCommand(io),
		mcpCommand(io),
		versionCommand(io),
	}
}

func versionCommand(io *IO) *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print rgit's version",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("run 'rgit version' with no arguments", "version takes no arguments, got %q", c.Args().First())
			}
			fmt.Fprintf(io.Out, "rgit %s\n", version)
			return nil
		},
	}
}

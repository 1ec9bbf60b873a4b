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
	var err error
	if name, ok := commandArg(args); ok && name != "help" && name != "h" && app.Command(name) == nil {
		err = unknownCommand(app, name)
	} else {
		err = app.RunContext(ctx, reorderArgs(app, args))
	}
	if err != nil {
		if wantsJSON(args) {
			printJSONError(io, err)
		} else {
			fmt.Fprintf(io.Err, "rgit: error: %s\n", safe(err.Error()))
			if hint := hintFor(err); hint != "" {
				for _, line := range strings.Split(hint, "\n") {
					fmt.Fprintf(io.Err, "rgit: hint: %s\n", safe(line))
				}
			}
		}
	}
	return exitCode(err)
}

// commandArg is the first argument that is not a flag: the command name.
func commandArg(args []string) (string, bool) {
	for _, a := range args[min(1, len(args)):] {
		if a == "--" {
			return "", false
		}
		if !strings.HasPrefix(a, "-") {
			return a, true
		}
	}
	return "", false
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
		OnUsageError:   func(c *cli.Context, err error, _ bool) error { return flagUsageError(c, err) },
		Commands:       withUsageErrors(commands(io)),
	}
}

// withUsageErrors makes every command report a flag error as one line
// with a "did you mean", never with its whole help.
func withUsageErrors(cmds []*cli.Command) []*cli.Command {
	for _, c := range cmds {
		c.OnUsageError = func(c *cli.Context, err error, _ bool) error { return flagUsageError(c, err) }
	}
	return cmds
}

func commands(io *IO) []*cli.Command {
	return []*cli.Command{
		researchCommand(io),
		statusCommand(io),
		waitCommand(io),
		watchCommand(io),
		logCommand(io),
		verifyCommand(io),
		listCommand(io),
		cancelCommand(io),
		agentsCommand(io),
		integrateCommand(io),
		mcpCommand(io),
		forkCommand(io),
		diffCommand(io),
		showCommand(io),
		exportCommand(io),
		versionCommand(io),
		completionCommand(io),
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

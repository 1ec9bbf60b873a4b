package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/agents/integrate"
	"github.com/rgit-dev/rgit/gitstore"
)

func integrateCommand(io *IO) *cli.Command {
	return &cli.Command{
		Name:      "integrate",
		Usage:     "register 'rgit mcp' with an agent CLI (claude, codex, gemini, opencode), in its own config format",
		ArgsUsage: "claude|codex|gemini|opencode",
		Description: "Merges rgit's MCP server into the CLI's configuration, keeping everything else in the file:\n" +
			"  claude    ~/.claude.json or .mcp.json, and a plugin: /rgit:deep-research, /rgit:cancel-research\n" +
			"  codex     [mcp_servers.rgit] in $CODEX_HOME/config.toml or .codex/config.toml\n" +
			"  gemini    mcpServers in ~/.gemini/settings.json or .gemini/settings.json\n" +
			"  opencode  mcp in ~/.config/opencode/opencode.json or opencode.json\n" +
			"A file it cannot parse is left alone (exit 2). Running it again changes nothing.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "user", Usage: "write the CLI's user configuration (the default)"},
			&cli.BoolFlag{Name: "project", Usage: "write files in the root of the repository rgit runs in"},
			&cli.BoolFlag{Name: "print", Usage: "show what would be written, and write nothing"},
		},
		Action: func(c *cli.Context) error {
			o, err := integrateOptions(c)
			if err != nil {
				return err
			}
			files, err := integrate.Plan(o)
			var pe *integrate.ParseError
			if errors.As(err, &pe) {
				return usagef("fix "+pe.File+" (or move it away), then run 'rgit integrate "+string(o.CLI)+"' again", "%v", err)
			}
			if err != nil {
				return err
			}
			if c.Bool("print") {
				printPlan(io, files)
				return nil
			}
			if err := integrate.Apply(files); err != nil {
				return err
			}
			for _, f := range files {
				verb := "unchanged"
				if f.Changed() {
					verb = "wrote"
				}
				fmt.Fprintf(io.Out, "%-9s %s\n", verb, f.Path)
			}
			fmt.Fprintf(io.Out, "\n%s\n", nextStep(o.CLI))
			return nil
		},
	}
}

// integrateOptions checks the arguments; it touches nothing.
func integrateOptions(c *cli.Context) (integrate.Options, error) {
	var o integrate.Options
	if c.NArg() != 1 {
		return o, usagef("name one: rgit integrate claude|codex|gemini|opencode", "expected one agent CLI, got %d arguments", c.NArg())
	}
	name, err := integrate.ParseCLI(c.Args().First())
	if err != nil {
		return o, usagef("name one: rgit integrate claude|codex|gemini|opencode", "%v", err)
	}
	if c.Bool("user") && c.Bool("project") {
		return o, usagef("pass --user or --project, not both", "--user and --project both given")
	}
	bin, err := os.Executable()
	if err == nil {
		bin, err = filepath.EvalSymlinks(bin)
	}
	if err != nil {
		return o, fmt.Errorf("find the rgit binary: %w", err)
	}
	o = integrate.Options{CLI: name, Scope: integrate.User, Command: bin, Args: []string{"mcp"}, Getenv: os.Getenv}
	if c.Bool("project") {
		o.Scope = integrate.Project
		wd, err := os.Getwd()
		if err != nil {
			return o, fmt.Errorf("find working directory: %w", err)
		}
		s, err := gitstore.Open(wd)
		if errors.Is(err, gitstore.ErrNotRepository) {
			return o, usagef("run it inside the repository, or pass --user", "not a git repository: %s", wd)
		} else if err != nil {
			return o, err
		}
		o.Root = s.Root()
		s.Close()
	}
	return o, nil
}

// printPlan shows each file with its new contents; unchanged files by name.
func printPlan(io *IO, files []integrate.File) {
	for _, f := range files {
		switch {
		case !f.Changed():
			fmt.Fprintf(io.Out, "# %s: unchanged\n", f.Path)
			continue
		case f.Exists:
			fmt.Fprintf(io.Out, "# %s: would change to\n", f.Path)
		default:
			fmt.Fprintf(io.Out, "# %s: would create\n", f.Path)
		}
		io.Out.Write(f.New)
		if !strings.HasSuffix(string(f.New), "\n") {
			fmt.Fprintln(io.Out)
		}
	}
}

// nextStep tells the user how to reach rgit from the CLI.
func nextStep(c integrate.CLI) string {
	switch c {
	case integrate.Claude:
		// Claude Code lists a plugin's commands under its name; its own
		// /deep-research is a built-in workflow.
		return "In Claude Code: /rgit:deep-research [--test] <topic>, and /rgit:cancel-research to stop it."
	case integrate.Codex:
		return "In Codex: ask it to research a topic with rgit; the tools are mcp__rgit (research_start, research_status, ...)."
	}
	return "In " + string(c) + ": ask it to research a topic with rgit's research_start tool, then research_status and research_report."
}

package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/phases"
)

func nameFlag() cli.Flag {
	return &cli.StringFlag{Name: "name", Usage: "session name (default: the only session, if there is one)", EnvVars: []string{"RGIT_NAME"}}
}

// inspector reads the sessions of the working directory's repository on
// rgit's clock.
func inspector(io *IO) (phases.Inspector, error) {
	clock, err := clockFrom(io.getenv)
	if err != nil {
		return phases.Inspector{}, err
	}
	wd, err := os.Getwd()
	if err != nil {
		return phases.Inspector{}, fmt.Errorf("find working directory: %w", err)
	}
	return phases.Inspector{Dir: wd, Clock: clock}, nil
}

// sessionName is --name, or the repository's only session.
func sessionName(c *cli.Context, in phases.Inspector) (string, error) {
	if c.NArg() > 0 {
		return "", usagef("pass the session with --name", "unexpected argument %q", c.Args().First())
	}
	if n := c.String("name"); n != "" {
		return n, nil
	}
	list, err := in.List()
	if err != nil {
		return "", err
	}
	if len(list) == 1 {
		return list[0].Name, nil
	}
	return "", usagef("run 'rgit list' and pass one with --name", "%d sessions here; which one?", len(list))
}

// onSession wraps an action that needs an inspector and the session it
// names.
func onSession(io *IO, fn func(c *cli.Context, in phases.Inspector, name string) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		in, err := inspector(io)
		if err != nil {
			return err
		}
		name, err := sessionName(c, in)
		if err != nil {
			return err
		}
		return fn(c, in, name)
	}
}

func short(h string) string {
	if len(h) > 8 {
		return h[:8]
	}
	return h
}

// dash is a table cell of session data: "-" when empty.
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return safe(s)
}

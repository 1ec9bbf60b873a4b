package main

import (
	"fmt"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases"
	"github.com/rgit-dev/rgit/phases/layout"
)

// readyFlag marks the detached child: its value is the pipe (fd or
// handle) on which it tells the parent that the session started.
const readyFlag = "detached-ready"

// readyTimeout bounds how long --detach waits for the session to start; a
// start takes well under a second, so this is a hung child.
const readyTimeout = time.Minute

func detachFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "detach", Usage: "check everything, start the session in the background and exit at once with its name, branch and progress log (then: rgit wait, rgit status --follow)"},
		&cli.StringFlag{Name: readyFlag, Hidden: true},
	}
}

// detached is what a started background session tells its parent.
type detached struct {
	Name        string `json:"name"`
	Branch      string `json:"branch"`
	ProgressLog string `json:"progress_log"`
	PID         int    `json:"pid"`
}

// detach is `rgit research --detach`: the flags are checked here as a
// foreground run checks them, then rgit runs again with the same flags in
// its own session and process group, checks everything else itself, and
// says on its readiness pipe when it holds the session lock. Until then
// its output is relayed here, so bad input reads and exits as in the
// foreground, with nothing written.
func detach(c *cli.Context, io *IO) error {
	cfg, err := researchConfig(c)
	if err != nil {
		return err
	}
	if _, err := clockFrom(io.getenv); err != nil {
		return err
	}
	n := cfg
	if _, err := n.Normalize(); err != nil {
		return err
	}
	wd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("find working directory: %w", err)
	}
	args := childArgs(c)
	// The child has no terminal to ask on; the question is asked here.
	if n.NeedsConfirmation() && !n.Resume && io.IsTTY && !sessionExists(wd, n.Name) {
		q := fmt.Sprintf("This session may run up to %d iterations (breadth %d, depth %d). Continue?", n.MaxIterations, n.Breadth, n.Depth)
		if ok, err := confirmer(io)(q); err != nil || !ok {
			return fmt.Errorf("%w: not confirmed", phases.ErrCancelled)
		}
		args = append([]string{"--yes"}, args...)
	}
	d, err := startDetached(wd, args, io.Err)
	if err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "session   %s (pid %d, in the background)\nbranch    %s\nprogress  %s\n", d.Name, d.PID, d.Branch, d.ProgressLog)
	fmt.Fprintf(io.Out, "wait      rgit wait --name %s\nfollow    rgit status --follow --name %s\n", d.Name, d.Name)
	return nil
}

// childArgs are the research flags as given (minus --detach), then the
// topic after "--".
func childArgs(c *cli.Context) []string {
	var args []string
	for _, f := range c.Command.Flags {
		name := f.Names()[0]
		if name == "detach" || name == readyFlag || !c.IsSet(name) {
			continue
		}
		switch v := c.Value(name).(type) {
		case cli.StringSlice:
			for _, s := range c.StringSlice(name) {
				args = append(args, "--"+name+"="+s)
			}
		default:
			args = append(args, fmt.Sprintf("--%s=%v", name, v))
		}
	}
	return append(append(args, "--"), c.Args().Slice()...)
}

func sessionExists(dir, name string) bool {
	s, err := gitstore.Open(dir)
	if err != nil {
		return false
	}
	defer s.Close()
	_, err = s.Head(layout.Branch(name))
	return err == nil
}

// statusError ends a command with a given exit status, message and hint:
// a detached child's, or a finished session's (rgit wait).
type statusError struct {
	code      int
	msg, hint string
}

func (e *statusError) Error() string { return e.msg }
func (e *statusError) Hint() string  { return e.hint }

package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
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

// startDetached starts `rgit research args...` in dir as a detached
// session and waits until it holds the session lock, relaying what it
// prints until then to relay, except its error and hint lines, which
// become the returned error (with the child's exit status) if it stops
// first.
func startDetached(dir string, args []string, relay io.Writer) (detached, error) {
	exe, err := os.Executable()
	if err != nil {
		return detached{}, fmt.Errorf("find rgit's executable: %w", err)
	}
	readyR, readyW, err := os.Pipe()
	if err != nil {
		return detached{}, fmt.Errorf("create pipe: %w", err)
	}
	defer readyR.Close()
	outR, outW, err := os.Pipe()
	if err != nil {
		readyW.Close()
		return detached{}, fmt.Errorf("create pipe: %w", err)
	}
	defer outR.Close()
	cmd := exec.Command(exe)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, outW, outW
	marker := detachProcess(cmd, readyW)
	cmd.Args = append([]string{os.Args[0], "research", "--" + readyFlag + "=" + marker}, args...)
	err = cmd.Start()
	readyW.Close()
	outW.Close()
	if err != nil {
		return detached{}, fmt.Errorf("start detached session: %w", err)
	}
	lines := make(chan relayed, 1)
	go func() { lines <- relayLines(outR, relay) }()
	msg := make(chan []byte, 1)
	go func() { b, _ := io.ReadAll(readyR); msg <- b }()
	var b []byte
	select {
	case b = <-msg:
	case <-time.After(readyTimeout):
		killDetached(cmd.Process)
		cmd.Wait()
		return detached{}, fmt.Errorf("start detached session: it did not start within %s", readyTimeout)
	}
	var d detached
	if len(b) > 0 && json.Unmarshal(b, &d) == nil && d.Name != "" {
		// The child points its standard output and error away before it
		// says so: the relay has reached the end of what it printed.
		<-lines
		_ = cmd.Process.Release()
		return d, nil
	}
	werr := cmd.Wait()
	out := <-lines
	code := childExitCode(werr)
	if code == 0 {
		return detached{}, fmt.Errorf("start detached session: it ended before it started")
	}
	if out.err == "" {
		out.err = fmt.Sprintf("the detached session exited with status %d before it started", code)
	}
	return detached{}, &statusError{code: code, msg: out.err, hint: out.hint}
}

// relayed are the error and hint lines a child printed.
type relayed struct{ err, hint string }

func relayLines(r io.Reader, w io.Writer) relayed {
	var out relayed
	var hints []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if msg, ok := strings.CutPrefix(line, "rgit: error: "); ok && out.err == "" {
			out.err = msg
		} else if h, ok := strings.CutPrefix(line, "rgit: hint: "); ok {
			hints = append(hints, h)
		} else {
			fmt.Fprintln(w, line)
		}
	}
	out.hint = strings.Join(hints, "\n")
	return out
}

// signalReady tells the parent that the session started. Standard output
// and error go to the null device first: the parent stops reading them
// once it knows, and it must have seen all of them by then.
func signalReady(w *os.File, d detached) {
	defer w.Close()
	redirectStdio()
	b, _ := json.Marshal(d)
	_, _ = w.Write(b)
}

// statusError ends a command with a given exit status, message and hint:
// a detached child's, or a finished session's (rgit wait).
type statusError struct {
	code      int
	msg, hint string
}

func (e *statusError) Error() string { return e.msg }
func (e *statusError) Hint() string  { return e.hint }

// childExitCode is the exit status in a Wait error.
func childExitCode(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		return ee.ExitCode()
	}
	return exitFailure
}

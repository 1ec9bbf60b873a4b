package main

import (
	"context"
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/phases"
)

// pollEvery is how often wait and follow look at the session again.
const pollEvery = 100 * time.Millisecond

func waitCommand(io *IO) *cli.Command {
	return &cli.Command{
		Name:  "wait",
		Usage: "wait for a session's run to end, then exit with the run's own status",
		Description: "Works for detached runs (rgit research --detach) and runs in another terminal alike: the run\n" +
			"records its outcome in the session, so wait also reports a run that ended before it was called.\n\n" +
			"Exit status: the run's (0 done, 1 failed, or killed without an outcome, 130 cancelled);\n" +
			"3 when --timeout passes while it still runs; 2 bad input.",
		Flags: []cli.Flag{nameFlag(), &cli.DurationFlag{Name: "timeout", Usage: "give up after this long, for example 30s or 10m; 0 waits until the end"}},
		Action: onSession(io, func(c *cli.Context, in phases.Inspector, name string) error {
			if c.Duration("timeout") < 0 {
				return usagef("pass --timeout as a positive duration such as 30s", "invalid --timeout %s", c.Duration("timeout"))
			}
			o, err := waitRun(c.Context, in, name, c.Duration("timeout"), nil)
			if err != nil {
				return err
			}
			return endOf(io, name, o, true)
		}),
	}
}

// waitRun polls the session until its last run is not running, calling
// each (when not nil) at every look, and returns how the run ended. A
// session with no recorded run is done if complete, else stopped.
func waitRun(ctx context.Context, in phases.Inspector, name string, timeout time.Duration, each func()) (phases.Outcome, error) {
	var deadline <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		deadline = t.C
	}
	poll, err := in.LastRunPoller(name)
	if err != nil {
		return phases.Outcome{}, err
	}
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for {
		if each != nil {
			each()
		}
		o, ok, err := poll()
		if err != nil {
			return o, err
		}
		if !ok {
			return unrecorded(in, name)
		}
		if o.State != phases.RunRunning {
			return o, nil
		}
		select {
		case <-ctx.Done():
			return o, ctx.Err()
		case <-deadline:
			return o, &statusError{code: exitLocked, msg: fmt.Sprintf("session %s is still running after %s", name, timeout),
				hint: "wait again, follow it with 'rgit status --follow --name " + name + "', or stop it with 'rgit cancel --name " + name + "'"}
		case <-tick.C:
		}
	}
}

// unrecorded is the end of a session no run of this rgit recorded here:
// a complete session is done, any other is stopped and resumable.
func unrecorded(in phases.Inspector, name string) (phases.Outcome, error) {
	info, err := in.Status(name)
	if err != nil {
		return phases.Outcome{}, err
	}
	if info.Complete {
		zero := 0
		return phases.Outcome{State: phases.RunDone, ExitStatus: &zero, Summary: fmt.Sprintf("complete, %d of %d topics", info.Counts.Complete, info.Counts.Total)}, nil
	}
	return phases.Outcome{State: phases.RunStopped, Error: "it is not running and no run recorded how it ended",
		Hint: "resume it with: rgit research --name " + name + " --resume"}, nil
}

// endOf ends the command as the run ended: done prints its summary (when
// say) and exits 0; anything else is an error with the run's exit status,
// 1 for a run killed before it could record one.
func endOf(io *IO, name string, o phases.Outcome, say bool) error {
	if o.State == phases.RunDone && o.ExitStatus != nil && *o.ExitStatus == exitOK {
		if say {
			fmt.Fprintf(io.Out, "session %s done: %s\n", name, dash(o.Summary))
		}
		return nil
	}
	code := exitFailure
	if o.ExitStatus != nil && *o.ExitStatus != exitOK {
		code = *o.ExitStatus
	}
	why := o.Error
	if why == "" {
		why = o.Summary
	}
	return &statusError{code: code, msg: fmt.Sprintf("session %s %s: %s", name, o.State, dash(why)), hint: o.Hint}
}

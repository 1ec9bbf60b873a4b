package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/agents/redact"
	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases"
	"github.com/rgit-dev/rgit/phases/layout"
)

// runRecord keeps the record of one run of `rgit research` in its
// session's workspace: the progress log, and outcome.json, written when
// the run has the session lock (running) and again when it ends (how).
// It is a Reporter: EventStarted is its cue. A run that never gets the
// lock (bad input, locked) records nothing. In a detached child it also
// tells the waiting parent that the session started (see detach.go).
type runRecord struct {
	io      *IO
	clock   phases.Clock
	name    string // the session's name, as Normalize derives it
	log     *progressLog
	ready   *os.File // a detached child's readiness pipe; nil otherwise
	lay     layout.Layout
	started *phases.Outcome // nil until the run holds the lock
	quiet   bool            // --quiet: the log's path is not shown
}

// newRunRecord prepares the record of a run of cfg (flags checked, not yet
// normalized).
func newRunRecord(c *cli.Context, io *IO, cfg phases.Config, clock phases.Clock) *runRecord {
	n := cfg
	_, _ = n.Normalize() // a config it refuses never starts a run
	r := &runRecord{io: io, clock: clock, name: n.Name, log: newProgressLog(clock, redact.Env()), quiet: verbosityOf(c) == quiet}
	if fd := c.String(readyFlag); fd != "" {
		if h, err := strconv.ParseUint(fd, 10, 64); err == nil {
			r.ready = openReady(uintptr(h))
		}
	}
	return r
}

// Report logs the event; EventStarted first opens the log and records the
// run as running.
func (r *runRecord) Report(e phases.Event) {
	if e.Kind == phases.EventStarted && r.started == nil {
		r.start()
	}
	r.log.Report(e)
}

func (r *runRecord) start() {
	wd, err := os.Getwd()
	if err != nil {
		return
	}
	s, err := gitstore.Open(wd)
	if err != nil {
		return
	}
	r.lay = layout.New(s.Root(), r.name)
	s.Close()
	host, _ := os.Hostname()
	o := phases.Outcome{State: phases.RunRunning, PID: os.Getpid(), Host: host, Detached: r.ready != nil, Started: r.clock.Now().UTC()}
	if l, ok, _ := phases.ReadLock(r.lay); ok {
		o.Token = l.Token
	}
	r.started = &o
	if err := phases.WriteOutcome(r.lay, o); err != nil {
		fmt.Fprintf(r.io.Err, "rgit: warning: %v\n", err)
	}
	shown := r.io.Err
	if r.quiet {
		shown = io.Discard
	}
	if err := r.log.open(r.lay.ProgressLog(), shown); err != nil {
		fmt.Fprintf(r.io.Err, "rgit: warning: %v\n", err)
	}
	if r.ready != nil {
		signalReady(r.ready, detached{Name: r.name, Branch: r.lay.Branch(), ProgressLog: r.lay.ProgressLog(), PID: os.Getpid()})
		r.ready = nil
	}
}

// finish records how the run ended, as its exit status will say.
func (r *runRecord) finish(sum phases.Summary, err error) {
	if r.started == nil {
		return
	}
	defer r.log.close()
	o := *r.started
	code := exitCode(err)
	o.ExitStatus = &code
	now := r.clock.Now().UTC()
	o.Finished = &now
	o.Summary = summaryLine(sum)
	switch code {
	case exitOK:
		o.State = phases.RunDone
	case exitCancelled:
		o.State = phases.RunStopped
	default:
		o.State = phases.RunFailed
	}
	if err != nil {
		red := redact.Env()
		o.Error = red.String(oneLineText(err.Error()))
		o.Hint = red.String(oneLineText(strings.ReplaceAll(hintFor(err), "\n", "; ")))
		if o.Hint == "" {
			o.Hint = "resume it with: rgit research --name " + r.name + " --resume"
		}
	}
	if werr := phases.WriteOutcome(r.lay, o); werr != nil {
		fmt.Fprintf(r.io.Err, "rgit: warning: %v\n", werr)
	}
	end := fmt.Sprintf("end %s, exit %d", o.State, code)
	if o.Error != "" {
		end += ": " + o.Error
	} else if o.Summary != "" {
		end += ": " + o.Summary
	}
	r.log.write(end)
}

// summaryLine is a run's summary in one line.
func summaryLine(s phases.Summary) string {
	if s.Name == "" {
		return ""
	}
	line := fmt.Sprintf("%d of %d topics complete, %d iterations (limit %d)", s.Complete, s.Total, s.Iterations, s.MaxIter)
	if s.Finished && s.ReportPath != "" {
		line += ", report " + s.ReportPath
		if s.Target != "" {
			line += " merged into " + s.Target
		}
	}
	return line
}

func oneLineText(s string) string { return strings.Join(strings.Fields(s), " ") }

// runLine describes a session's last run for `rgit status`.
func runLine(o phases.Outcome, now time.Time) string {
	switch {
	case o.State == phases.RunRunning:
		how := ""
		if o.Detached {
			how = ", detached"
		}
		return fmt.Sprintf("running (pid %d on %s%s), started %s ago", o.PID, o.Host, how, now.Sub(o.Started).Round(time.Second))
	case o.ExitStatus == nil:
		return fmt.Sprintf("%s: %s", o.State, o.Error)
	case o.Error != "":
		return fmt.Sprintf("%s, exit %d: %s", o.State, *o.ExitStatus, o.Error)
	}
	return fmt.Sprintf("%s, exit %d: %s", o.State, *o.ExitStatus, o.Summary)
}

package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/phases"
)

// progress renders phase events as one line each on standard error.
type progress struct{ io *IO }

func newProgress(io *IO) *progress { return &progress{io: io} }

// Report prints one event; secrets never reach the terminal.
func (p *progress) Report(e phases.Event) {
	w := p.io.Err
	msg := phases.Redact(e.Message)
	switch e.Kind {
	case phases.EventNotice:
		fmt.Fprintf(w, "rgit: %s\n", msg)
	case phases.EventWarning:
		fmt.Fprintf(w, "rgit: warning: %s\n", msg)
	case phases.EventPhaseStart, phases.EventPhaseDone:
		if e.Message != "" { // a council member's step, in the seed's words
			fmt.Fprintf(w, "%s\n", msg)
			return
		}
		if e.Kind == phases.EventPhaseDone {
			p.done(e)
			return
		}
		if e.Attempt == 0 {
			fmt.Fprintf(w, "%s %-12s %s\n", counter(e), e.Phase, label(e.Topic))
		}
	case phases.EventRetry:
		fmt.Fprintf(w, "      retry %d/3 %s %s: %s\n", e.Attempt, e.Phase, label(e.Topic), firstLine(msg))
	case phases.EventWait:
		fmt.Fprintf(w, "      %s: %s\n", e.Agent, msg)
	}
}

// done prints a committed phase.
func (p *progress) done(e phases.Event) {
	commit := e.Commit
	if len(commit) > 8 {
		commit = commit[:8]
	}
	fmt.Fprintf(p.io.Err, "      done %s in %s (agent %s) -> %s\n", e.Phase, e.Duration.Round(time.Millisecond), e.AgentTime.Round(time.Millisecond), commit)
}

func counter(e phases.Event) string {
	if e.Max == 0 {
		return "[  ]"
	}
	return fmt.Sprintf("[%d/%d]", e.Iteration, e.Max)
}

func label(topic string) string {
	if topic == "" {
		return ""
	}
	return fmt.Sprintf("%q", topic)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// printSummary tells the user what the run did and how to read or resume it.
func printSummary(io *IO, s phases.Summary, err error, took time.Duration) {
	if s.Name == "" {
		return
	}
	var conflict *phases.MergeConflictError
	if errors.As(err, &conflict) {
		return // the session is complete; the error's hint says how to merge
	}
	if errors.Is(err, phases.ErrCancelled) || (err != nil && !errors.Is(err, phases.ErrLocked) && (s.Total > 0 || s.Council != "")) {
		fmt.Fprintf(io.Err, "rgit: session %s stopped; nothing committed is lost.\nrgit: resume with: rgit research --name %s --resume\n", s.Name, s.Name)
		return
	}
	if err != nil || !s.Finished {
		return
	}
	out := io.Out
	fmt.Fprintf(out, "\nResearch %s complete in %s\n", s.Name, took.Round(time.Second))
	if s.Council != "" {
		fmt.Fprintf(out, "  council:          %s\n", s.Council)
	} else {
		fmt.Fprintf(out, "  topics complete:  %d of %d\n", s.Complete, s.Total)
	}
	if s.Council == "" {
		fmt.Fprintf(out, "  iterations:       %d (limit %d)\n", s.Iterations, s.MaxIter)
	}
	fmt.Fprintf(out, "  agent time:       %s\n", s.AgentTime.Round(time.Millisecond))
	fmt.Fprintf(out, "  retried phases:   %d\n", s.Retried)
	if len(s.Exhausted) > 0 {
		fmt.Fprintf(out, "  exhausted topics: %s\n", strings.Join(s.Exhausted, ", "))
	}
	if s.Warning != "" {
		fmt.Fprintf(out, "  WARNING: %s\n", s.Warning)
	}
	fmt.Fprintf(out, "  report:           %s", s.ReportPath)
	if s.Target != "" {
		fmt.Fprintf(out, " (merged into %s)", s.Target)
	}
	fmt.Fprintf(out, "\n  history:          rgit log --name %s\n                    git log %s\n", s.Name, s.Branch)
}

package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/phases"
)

// verbosity is how much progress rgit prints.
type verbosity int

const (
	quiet   verbosity = iota - 1 // warnings only
	normal                       // one line per event (a status line on a terminal)
	verbose                      // also every attempt, with its agent, tokens and cost
)

func progressFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print only warnings, errors and the summary"},
		&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "print every attempt with its agent, tokens and cost"},
	}
}

func verbosityOf(c *cli.Context) verbosity {
	switch {
	case c.Bool("quiet"):
		return quiet
	case c.Bool("verbose"):
		return verbose
	}
	return normal
}

// progress renders phase events on standard error: one plain line per
// event, and on a terminal a status line below them, redrawn in place
// (elapsed time, iteration, the calls in flight with their agent, tokens
// and cost so far, the last review's verdict). Secrets never reach it:
// every message is redacted.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	level verbosity
	live  *statusLine // nil when standard error is not a terminal
	// terminal makes the status line; nil when standard error is not a terminal.
	terminal func() *statusLine
	// stop ends the ticks that redraw the status line; stopped says they have.
	stop, stopped chan struct{}
}

func newProgress(io *IO) *progress { return &progress{w: io.Err} }

// researchProgress is the progress of `rgit research`: its verbosity from
// the flags, and whether standard error is a terminal (not TERM=dumb) that
// gets a status line once the run starts (see start).
func researchProgress(c *cli.Context, io *IO, clock phases.Clock) *progress {
	p := newProgress(io)
	p.level = verbosityOf(c)
	if io.ErrTTY && io.getenv("TERM") != "dumb" && p.level > quiet {
		p.terminal = func() *statusLine { return newStatusLine(clock, func() int { return terminalWidth(io) }) }
	}
	return p
}

// startProgress shows r's status line, if r is a progress on a terminal,
// and redraws it every second until closeProgress. Before it (while flags
// and agents are checked) events are plain lines, so an error is never
// printed on top of a status line.
func startProgress(r phases.Reporter) {
	p, ok := progressOf(r)
	if !ok || p.terminal == nil {
		return
	}
	p.mu.Lock()
	p.live = p.terminal()
	p.mu.Unlock()
	p.stop, p.stopped = make(chan struct{}), make(chan struct{})
	go p.ticks(time.Second)
}

func (p *progress) ticks(every time.Duration) {
	defer close(p.stopped)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.tick()
		}
	}
}

// Report prints one event.
func (p *progress) Report(e phases.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live != nil {
		p.live.update(e)
	}
	line := p.line(e)
	if p.live == nil {
		if line != "" {
			fmt.Fprint(p.w, line)
		}
		return
	}
	if e.Kind == phases.EventPhaseStart && p.level < verbose {
		line = "" // the status line shows it
	}
	fmt.Fprint(p.w, clearLine+line+p.live.render())
}

// tick redraws the status line (the elapsed time moves).
func (p *progress) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live != nil {
		fmt.Fprint(p.w, clearLine+p.live.render())
	}
}

// close stops the ticks and clears the status line, so the summary starts
// on a clean line.
func (p *progress) close() {
	if p.stop != nil {
		close(p.stop)
		<-p.stopped
		p.stop = nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live != nil {
		fmt.Fprint(p.w, clearLine)
		p.live = nil
	}
}

// line is the plain line of an event at p's verbosity; "" for none.
func (p *progress) line(e phases.Event) string {
	msg := safeText(phases.Redact(e.Message))
	if p.level == quiet && e.Kind != phases.EventWarning {
		return ""
	}
	switch e.Kind {
	case phases.EventNotice:
		return fmt.Sprintf("rgit: %s\n", msg)
	case phases.EventWarning:
		return fmt.Sprintf("rgit: warning: %s\n", msg)
	case phases.EventPhaseStart:
		if e.Message != "" { // a council member's step, in the seed's words
			return msg + "\n"
		}
		if p.level == verbose {
			return fmt.Sprintf("%s %-12s %s (%s, attempt %d)\n", counter(e), e.Phase, label(e.Topic), e.Agent, e.Attempt+1)
		}
		if e.Attempt == 0 {
			return fmt.Sprintf("%s %-12s %s\n", counter(e), e.Phase, label(e.Topic))
		}
	case phases.EventRetry:
		return fmt.Sprintf("      retry %d/%d %s %s: %s\n", e.Attempt, e.Max, e.Phase, label(e.Topic), firstLine(msg))
	case phases.EventWait:
		return fmt.Sprintf("      %s: %s\n", safe(e.Agent), msg)
	case phases.EventCallDone:
		return fmt.Sprintf("      end %s %s %s in %s: %s\n", e.Phase, label(e.Topic), e.Agent, e.Duration.Round(time.Millisecond), firstLine(msg))
	case phases.EventPhaseDone:
		if e.Message != "" {
			return msg + "\n"
		}
		s := fmt.Sprintf("      done %s in %s (agent %s) -> %s", e.Phase, e.Duration.Round(time.Millisecond), e.AgentTime.Round(time.Millisecond), short(e.Commit))
		if e.Verdict != "" {
			s += ": " + verdictText(e.Verdict, e.Gaps)
		}
		if p.level == verbose && e.Agent != "" {
			s += fmt.Sprintf(" [%s, %d tokens, $%.4f]", e.Agent, e.Tokens, e.CostUSD)
		}
		return s + "\n"
	}
	return ""
}

func verdictText(v phases.Verdict, gaps int) string {
	switch {
	case gaps == 1:
		return fmt.Sprintf("%s, 1 gap", v)
	case gaps > 1:
		return fmt.Sprintf("%s, %d gaps", v, gaps)
	}
	return string(v)
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
	fmt.Fprintf(out, "  usage:            %s\n", spendText(s.Spend, s.Budget))
	fmt.Fprintf(out, "  critical path:    %s (wall %s, jobs %d)\n", s.CriticalPath.Round(time.Millisecond), s.Wall.Round(time.Millisecond), s.Jobs)
	fmt.Fprintf(out, "  retried phases:   %d\n", s.Retried)
	if s.Citations != "" {
		fmt.Fprintf(out, "  citations:        %s\n", strings.TrimPrefix(s.Citations, "citations "))
	}
	if len(s.Exhausted) > 0 {
		fmt.Fprintf(out, "  exhausted topics: %s\n", safeJoin(s.Exhausted, ", "))
	}
	if s.Warning != "" {
		fmt.Fprintf(out, "  WARNING: %s\n", safe(s.Warning))
	}
	fmt.Fprintf(out, "  report:           %s", s.ReportPath)
	if s.Target != "" {
		fmt.Fprintf(out, " (merged into %s)", s.Target)
	}
	fmt.Fprintf(out, "\n  history:          rgit log --name %s\n                    git log %s\n", s.Name, s.Branch)
}

// closeProgress stops a progress's status line, if r is one.
func closeProgress(r phases.Reporter) {
	if p, ok := progressOf(r); ok {
		p.close()
	}
}

// progressOf finds the terminal progress among r's reporters.
func progressOf(r phases.Reporter) (*progress, bool) {
	switch v := r.(type) {
	case *progress:
		return v, true
	case teeReporter:
		for _, x := range v {
			if p, ok := progressOf(x); ok {
				return p, true
			}
		}
	}
	return nil, false
}

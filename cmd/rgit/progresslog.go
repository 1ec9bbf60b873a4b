package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/rgit-dev/rgit/agents/redact"
	"github.com/rgit-dev/rgit/phases"
)

// progressLog appends every progress event of a run to the session's
// progress.log, one line each behind an RFC 3339 timestamp, for `tail -f`
// and `rgit status --follow`. Lines are redacted and hold no control
// characters: an agent's error text is untrusted and must not move a
// terminal's cursor. The file is opened only once the run holds the
// session lock (open, on EventStarted), so a run refused as bad input
// writes nothing; the events before that are kept and written first.
type progressLog struct {
	mu      sync.Mutex
	clock   phases.Clock
	red     *redact.Redactor
	pending []string
	f       *os.File
}

func newProgressLog(clock phases.Clock, red *redact.Redactor) *progressLog {
	return &progressLog{clock: clock, red: red}
}

// Report writes one event's line.
func (p *progressLog) Report(e phases.Event) { p.write(eventText(e)) }

// open starts appending to path (a resumed session's log goes on), with
// the lines kept so far; it tells the user where the log is on w.
func (p *progressLog) open(path string, w io.Writer) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("open progress log: %w", err)
	}
	fmt.Fprintf(w, "rgit: progress log: %s\n", displayPath(path))
	p.mu.Lock()
	defer p.mu.Unlock()
	p.f = f
	for _, line := range p.pending {
		p.f.WriteString(line)
	}
	p.pending = nil
	return nil
}

// write appends one line: a single write, so that a reader never sees half
// of it interleaved with another.
func (p *progressLog) write(text string) {
	line := p.clock.Now().UTC().Format(time.RFC3339) + " " + logSafe(p.red.String(text)) + "\n"
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.f == nil {
		p.pending = append(p.pending, line)
		return
	}
	// A full disk must not stop the research; the branch is the record.
	_, _ = p.f.WriteString(line)
}

func (p *progressLog) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.f != nil {
		p.f.Close()
		p.f = nil
	}
}

// displayPath is path relative to the working directory when it is
// under it (as .research/<name>/progress.log is from the repository's
// root), else absolute.
func displayPath(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return rel
}

// eventText is an event as one line of the log (without its timestamp).
func eventText(e phases.Event) string {
	switch e.Kind {
	case phases.EventNotice:
		return "notice " + e.Message
	case phases.EventWarning:
		return "warning " + e.Message
	case phases.EventStarted:
		return "started " + e.Message
	case phases.EventPhaseStart:
		s := fmt.Sprintf("start %s %s%s agent %s", logCounter(e), e.Phase, topicSuffix(e.Topic), dash(e.Agent))
		if e.Attempt > 0 {
			s += fmt.Sprintf(" attempt %d", e.Attempt+1)
		}
		return s
	case phases.EventPhaseDone:
		return fmt.Sprintf("done %s %s%s in %s (agent %s) commit %s", logCounter(e), e.Phase, topicSuffix(e.Topic),
			e.Duration.Round(time.Millisecond), e.AgentTime.Round(time.Millisecond), short(e.Commit))
	case phases.EventRetry:
		return fmt.Sprintf("retry %s%s attempt %d/%d agent %s: %s", e.Phase, topicSuffix(e.Topic), e.Attempt, e.Max, dash(e.Agent), e.Message)
	case phases.EventWait:
		return fmt.Sprintf("wait agent %s: %s", dash(e.Agent), e.Message)
	}
	return fmt.Sprintf("event %d %s", e.Kind, e.Message)
}

func topicSuffix(topic string) string {
	if topic == "" {
		return ""
	}
	return fmt.Sprintf(" %q", topic)
}

// maxLogLine keeps one event to one readable line.
const maxLogLine = 2000

// logSafe makes text one line of printable characters: every control
// character (newlines, tabs, escape sequences, C1 codes) becomes a space.
func logSafe(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	if len(s) > maxLogLine {
		s = strings.ToValidUTF8(s[:maxLogLine], "") + "..."
	}
	return s
}

// teeReporter passes every event to each reporter in turn.
type teeReporter []phases.Reporter

func (t teeReporter) Report(e phases.Event) {
	for _, r := range t {
		r.Report(e)
	}
}

// logCounter is [iteration/limit], or [-] before the plan sets a limit.
func logCounter(e phases.Event) string {
	if e.Max == 0 {
		return "[-]"
	}
	return fmt.Sprintf("[%d/%d]", e.Iteration, e.Max)
}

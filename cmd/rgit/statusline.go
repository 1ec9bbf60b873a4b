package main

import (
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rgit-dev/rgit/phases"
)

// clearLine returns the cursor to the line's start and erases it.
const clearLine = "\r\x1b[K"

// statusLine is the one line a terminal shows under the event lines. It
// keeps every call in flight (with --jobs there are several) and shows
// the newest with a count of the others.
type statusLine struct {
	clock    phases.Clock
	width    func() int
	start    time.Time
	inflight map[string]flight
	seq      int
	iter     string
	tokens   int64
	cost     float64
	verdict  string
}

type flight struct {
	phase phases.Phase
	topic string
	agent string
	seq   int
}

func newStatusLine(clock phases.Clock, width func() int) *statusLine {
	return &statusLine{clock: clock, width: width, start: clock.Now(), inflight: map[string]flight{}}
}

func flightKey(e phases.Event) string { return string(e.Phase) + "\x00" + e.Topic }

func (s *statusLine) update(e phases.Event) {
	switch e.Kind {
	case phases.EventPhaseStart:
		s.seq++
		s.inflight[flightKey(e)] = flight{phase: e.Phase, topic: e.Topic, agent: e.Agent, seq: s.seq}
		if e.Max > 0 {
			s.iter = fmt.Sprintf("[%d/%d]", e.Iteration, e.Max)
		}
	case phases.EventPhaseDone:
		delete(s.inflight, flightKey(e))
		s.tokens += e.Tokens
		s.cost += e.CostUSD
		if e.Verdict != "" {
			s.verdict = fmt.Sprintf("last review: %s", verdictText(e.Verdict, e.Gaps))
		}
	}
}

// newest is the most recently started call in flight.
func (s *statusLine) newest() (flight, bool) {
	var all []flight
	for _, f := range s.inflight {
		all = append(all, f)
	}
	if len(all) == 0 {
		return flight{}, false
	}
	sort.Slice(all, func(i, j int) bool { return all[i].seq > all[j].seq })
	return all[0], true
}

// render is the status line, cut to the terminal's width.
func (s *statusLine) render() string {
	parts := []string{"rgit " + clockText(s.clock.Now().Sub(s.start))}
	if s.iter != "" {
		parts = append(parts, s.iter)
	}
	if f, ok := s.newest(); ok {
		call := string(f.phase)
		if f.topic != "" {
			call += " " + fmt.Sprintf("%q", f.topic)
		}
		if f.agent != "" {
			call += " (" + f.agent + ")"
		}
		if n := len(s.inflight); n > 1 {
			call = fmt.Sprintf("%d calls: %s +%d more", n, call, n-1)
		}
		parts = append(parts, call)
	} else {
		parts = append(parts, "committing")
	}
	parts = append(parts, fmt.Sprintf("%s tokens $%.2f", humanTokens(s.tokens), s.cost))
	if s.verdict != "" {
		parts = append(parts, s.verdict)
	}
	line := strings.Join(parts, " · ")
	if w := s.width(); w > 1 && utf8.RuneCountInString(line) > w-1 {
		line = cut(line, w-1)
	}
	return line
}

func clockText(d time.Duration) string {
	d = d.Round(time.Second)
	if d < 0 {
		d = 0
	}
	return fmt.Sprintf("%02d:%02d", int(d.Minutes()), int(d.Seconds())%60)
}

func humanTokens(n int64) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

// columnsEnv is $COLUMNS when it is a number, else 80.
func columnsEnv(io *IO) int {
	var n int
	if _, err := fmt.Sscan(io.getenv("COLUMNS"), &n); err == nil && n > 0 {
		return n
	}
	return 80
}

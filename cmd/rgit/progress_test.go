package main

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/phases"
)

func TestProgressLines(t *testing.T) {
	tests := []struct {
		e    phases.Event
		want string
	}{
		{phases.Event{Kind: phases.EventNotice, Message: "hello"}, "rgit: hello\n"},
		{phases.Event{Kind: phases.EventWarning, Message: "careful"}, "rgit: warning: careful\n"},
		{phases.Event{Kind: phases.EventPhaseStart, Phase: phases.PhaseResearch, Topic: "Moon", Iteration: 2, Max: 9}, "[2/9] research     \"Moon\"\n"},
		{phases.Event{Kind: phases.EventPhaseStart, Phase: phases.PhasePlan}, "[  ] plan         \n"},
		{phases.Event{Kind: phases.EventPhaseStart, Phase: phases.PhasePlan, Attempt: 1}, ""},
		{phases.Event{Kind: phases.EventRetry, Phase: phases.PhaseReview, Topic: "Moon", Attempt: 2, Max: 3, Message: "bad\nmore"}, "      retry 2/3 review \"Moon\": bad\n"},
		{phases.Event{Kind: phases.EventRetry, Phase: phases.PhaseReview, Attempt: 1, Max: 1, Message: strings.Repeat("x", 300)}, "      retry 1/1 review : " + strings.Repeat("x", 200) + "...\n"},
		{phases.Event{Kind: phases.EventWait, Agent: "claude", Message: "rate limited"}, "      claude: rate limited\n"},
		{phases.Event{Kind: phases.EventPhaseDone, Phase: phases.PhasePlan, Duration: 1500 * time.Millisecond, AgentTime: time.Second, Commit: "0123456789abcdef"},
			"      done plan in 1.5s (agent 1s) -> 01234567\n"},
	}
	for _, tc := range tests {
		var b strings.Builder
		newProgress(&IO{Err: &b}).Report(tc.e)
		if b.String() != tc.want {
			t.Errorf("Report(%+v) = %q, want %q", tc.e, b.String(), tc.want)
		}
	}
}

func TestPrintSummary(t *testing.T) {
	done := phases.Summary{Name: "x", Branch: "research/x", Complete: 2, Total: 3, Iterations: 4, MaxIter: 9, Finished: true,
		Exhausted: []string{"Moon"}, Warning: "limit reached", ReportPath: "reports/x/report.md"}
	tests := []struct {
		name      string
		sum       phases.Summary
		err       error
		out, errs string // substrings; "" = must be empty
	}{
		{"finished", done, nil, "exhausted topics: Moon", ""},
		{"cancelled", done, phases.ErrCancelled, "", "resume with: rgit research --name x --resume"},
		{"failed mid-way", done, errors.New("boom"), "", "session x stopped"},
		{"merge conflict: the hint says it all", done, &phases.MergeConflictError{}, "", ""},
		{"locked", done, &phases.LockedError{}, "", ""},
		{"nothing started", phases.Summary{}, errors.New("boom"), "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb strings.Builder
			printSummary(&IO{Out: &out, Err: &errb}, tc.sum, tc.err, 0)
			for _, c := range []struct{ got, want string }{{out.String(), tc.out}, {errb.String(), tc.errs}} {
				if (c.want == "") != (c.got == "") || !strings.Contains(c.got, c.want) {
					t.Errorf("printed %q, want %q", c.got, c.want)
				}
			}
		})
	}
}

func TestConfirmer(t *testing.T) {
	if confirmer(&IO{}) != nil {
		t.Error("no terminal, yet a confirmer")
	}
	for in, want := range map[string]bool{"y\n": true, "YES\n": true, "n\n": false, "": false, "maybe\n": false} {
		var errb strings.Builder
		ok, err := confirmer(&IO{In: strings.NewReader(in), Err: &errb, IsTTY: true})("Go on?")
		if err != nil || ok != want || errb.String() != "Go on? [y/N] " {
			t.Errorf("answer %q: %v %v, asked %q", in, ok, err, errb.String())
		}
	}
}

func TestStatusLineRender(t *testing.T) {
	clock := phases.FixedClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	start := func(topic string, iter int) phases.Event {
		return phases.Event{Kind: phases.EventPhaseStart, Phase: phases.PhaseResearch, Topic: topic, Iteration: iter, Max: 14, Agent: "claude:claude-opus-4-6"}
	}
	done := func(topic string) phases.Event {
		return phases.Event{Kind: phases.EventPhaseDone, Phase: phases.PhaseResearch, Topic: topic, Tokens: 12000, CostUSD: 0.25}
	}
	review := phases.Event{Kind: phases.EventPhaseDone, Phase: phases.PhaseReview, Topic: "Moon", Verdict: phases.VerdictRejected, Gaps: 2}
	tests := []struct {
		name   string
		events []phases.Event
		width  int
		want   string
	}{
		{"one call", []phases.Event{start("Moon", 3)}, 200, `rgit 00:00 · [3/14] · research "Moon" (claude:claude-opus-4-6) · 0 tokens $0.00`},
		{"several in flight: a count and the newest", []phases.Event{start("Moon", 3), start("Sun", 4), start("Tides", 5)}, 200,
			`rgit 00:00 · [5/14] · 3 calls: research "Tides" (claude:claude-opus-4-6) +2 more · 0 tokens $0.00`},
		{"totals and the last verdict", []phases.Event{start("Moon", 3), done("Moon"), review}, 200,
			"rgit 00:00 · [3/14] · committing · 12.0k tokens $0.25 · last review: rejected, 2 gaps"},
		{"cut to the terminal", []phases.Event{start("Moon", 3)}, 30, "rgit 00:00 · [3/14] · resear…"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newStatusLine(clock, func() int { return tc.width })
			for _, e := range tc.events {
				s.update(e)
			}
			if got := s.render(); got != tc.want {
				t.Errorf("render =\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestVerbosity(t *testing.T) {
	events := []phases.Event{
		{Kind: phases.EventNotice, Message: "hello"},
		{Kind: phases.EventWarning, Message: "careful"},
		{Kind: phases.EventPhaseStart, Phase: phases.PhaseResearch, Topic: "Moon", Iteration: 1, Max: 9, Agent: "mock", Attempt: 1},
		{Kind: phases.EventPhaseDone, Phase: phases.PhaseReview, Topic: "Moon", Agent: "mock", Tokens: 7, Verdict: phases.VerdictAccepted, Commit: "abc"},
	}
	tests := []struct {
		level verbosity
		want  string
	}{
		{quiet, "rgit: warning: careful\n"},
		{normal, "rgit: hello\nrgit: warning: careful\n      done review in 0s (agent 0s) -> abc: accepted\n"},
		{verbose, "rgit: hello\nrgit: warning: careful\n[1/9] research     \"Moon\" (mock, attempt 2)\n" +
			"      done review in 0s (agent 0s) -> abc: accepted [mock, 7 tokens, $0.0000]\n"},
	}
	for _, tc := range tests {
		var b strings.Builder
		p := newProgress(&IO{Err: &b})
		p.level = tc.level
		for _, e := range events {
			p.Report(e)
		}
		if b.String() != tc.want {
			t.Errorf("level %d:\n%q\nwant\n%q", tc.level, b.String(), tc.want)
		}
	}
}

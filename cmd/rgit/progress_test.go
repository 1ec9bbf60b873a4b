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
		{phases.Event{Kind: phases.EventRetry, Phase: phases.PhaseReview, Topic: "Moon", Attempt: 2, Message: "bad\nmore"}, "      retry 2/3 review \"Moon\": bad\n"},
		{phases.Event{Kind: phases.EventRetry, Phase: phases.PhaseReview, Attempt: 1, Message: strings.Repeat("x", 300)}, "      retry 1/3 review : " + strings.Repeat("x", 200) + "...\n"},
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

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents/redact"
	"github.com/rgit-dev/rgit/phases"
)

func TestLogSafe(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"two\nlines\r\n", "two lines"},
		{"tab\there", "tab here"},
		{"\x1b[2J\x1b[Hcleared", "[2J [Hcleared"},
		{"bell\a and del\x7f", "bell  and del"},
		{"c1 \u009b31m code", "c1  31m code"},
		{"unicode é ✓ stays", "unicode é ✓ stays"},
		{strings.Repeat("x", maxLogLine+10), strings.Repeat("x", maxLogLine) + "..."},
	}
	for _, tt := range tests {
		if got := logSafe(tt.in); got != tt.want {
			t.Errorf("logSafe(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestEventText(t *testing.T) {
	tests := []struct {
		e    phases.Event
		want string
	}{
		{phases.Event{Kind: phases.EventNotice, Message: "resuming"}, "notice resuming"},
		{phases.Event{Kind: phases.EventWarning, Message: "slow"}, "warning slow"},
		{phases.Event{Kind: phases.EventStarted, Message: "session s on research/s, run T"}, "started session s on research/s, run T"},
		{phases.Event{Kind: phases.EventPhaseStart, Phase: "plan", Agent: "mock"}, "start [-] plan agent mock"},
		{phases.Event{Kind: phases.EventPhaseStart, Phase: "research", Topic: "Moon", Iteration: 2, Max: 9, Agent: "claude", Attempt: 1},
			`start [2/9] research "Moon" agent claude attempt 2`},
		{phases.Event{Kind: phases.EventPhaseDone, Phase: "review", Topic: "Moon", Iteration: 3, Max: 9, Commit: "0123456789abcdef",
			Duration: 1500 * time.Millisecond, AgentTime: time.Second}, `done [3/9] review "Moon" in 1.5s (agent 1s) commit 01234567`},
		{phases.Event{Kind: phases.EventRetry, Phase: "research", Topic: "Moon", Attempt: 1, Max: 3, Agent: "codex", Message: "exit 1"},
			`retry research "Moon" attempt 1/3 agent codex: exit 1`},
		{phases.Event{Kind: phases.EventWait, Agent: "claude", Message: "rate limited"}, "wait agent claude: rate limited"},
	}
	for _, tt := range tests {
		if got := eventText(tt.e); got != tt.want {
			t.Errorf("eventText(%+v) = %q, want %q", tt.e, got, tt.want)
		}
	}
}

// TestProgressLog: lines wait in memory until the run holds the lock,
// then go to the file in order, one per event, timestamped, redacted and
// on one line; a reopened log is appended to.
func TestProgressLog(t *testing.T) {
	const secret = "sk-test-0123456789abcdef"
	clock := phases.FixedClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	path := filepath.Join(t.TempDir(), "progress.log")
	p := newProgressLog(clock, redact.New(nil, secret))
	p.Report(phases.Event{Kind: phases.EventNotice, Message: "before the lock"})
	if _, err := os.Stat(path); err == nil {
		t.Fatal("the log exists before it is opened")
	}
	var shown strings.Builder
	if err := p.open(path, &shown); err != nil {
		t.Fatal(err)
	}
	p.Report(phases.Event{Kind: phases.EventRetry, Phase: "plan", Attempt: 1, Max: 3, Agent: "openai", Message: "401 for key " + secret + "\nbody:\x1b[31m denied"})
	p.close()
	p2 := newProgressLog(clock, redact.New(nil))
	if err := p2.open(path, &shown); err != nil {
		t.Fatal(err)
	}
	p2.write("end done, exit 0")
	p2.close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "2026-01-02T03:04:05Z notice before the lock\n" +
		"2026-01-02T03:04:05Z retry plan attempt 1/3 agent openai: 401 for key " + redact.Marker + " body: [31m denied\n" +
		"2026-01-02T03:04:05Z end done, exit 0\n"
	if string(b) != want {
		t.Errorf("log:\n%s\nwant:\n%s", b, want)
	}
	if !strings.Contains(shown.String(), "rgit: progress log: ") {
		t.Errorf("the path was not shown: %q", shown.String())
	}
}

package mcpserver

import (
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/phases"
)

func running(head string) StatusView {
	return StatusView{Name: "tides", Branch: "research/tides", Topic: "How do tides work?", State: Running, Phase: "research",
		Iteration: 2, MaxIterations: 10, Topics: Counts{1, 3}, Head: head, Members: []string{"claude:claude-sonnet-4-5", "codex:gpt-5.3-codex"}}
}

func failed() StatusView {
	exit := 1
	v := running("c3")
	v.State, v.ExitStatus, v.Error = Failed, &exit, "research tides/moon: every agent failed (claude: rate limited)"
	return v
}

// TestStatusFailed: a failed session's status is an answer, not a tool
// error, and says failed with the error; it never says done.
func TestStatusFailed(t *testing.T) {
	repo := gitRepo(t)
	cs := connect(t, &fake{statuses: []StatusView{failed()}}, Options{Dir: repo})
	res, text, structured := call(t, cs, "research_status", map[string]any{"name": "tides"})
	if res.IsError {
		t.Fatalf("tool error: %s", text)
	}
	for _, w := range []string{"session tides (research/tides): failed", "error: research tides/moon: every agent failed", "exit status 1", "research_resume"} {
		if !strings.Contains(text, w) {
			t.Errorf("status does not say %q:\n%s", w, text)
		}
	}
	if strings.Contains(text, "done") || !strings.Contains(structured, `"state":"failed"`) || !strings.Contains(structured, `"exit_status":1`) {
		t.Errorf("text:\n%s\nstructured: %s", text, structured)
	}
}

// TestStatusWait: with wait_seconds the tool answers when the session
// ends, having asked again every poll while it ran (new commits too).
func TestStatusWait(t *testing.T) {
	repo := gitRepo(t)
	done := running("c9")
	done.State = Done
	f := &fake{statuses: []StatusView{running("c1"), running("c2"), running("c3"), done}}
	cs := connect(t, f, Options{Dir: repo, Poll: time.Millisecond})
	start := time.Now()
	_, text, _ := call(t, cs, "research_status", map[string]any{"name": "tides", "wait_seconds": 45})
	if !strings.Contains(text, ": done") || !strings.Contains(text, "research_report") {
		t.Errorf("after waiting:\n%s", text)
	}
	if got := f.Calls(); got != "status:tides status:tides status:tides status:tides" {
		t.Errorf("calls: %s", got)
	}
	if time.Since(start) > 30*time.Second {
		t.Errorf("waited %s for a session that was done", time.Since(start))
	}
	// Without wait_seconds it answers at once, running.
	f = &fake{statuses: []StatusView{running("c1"), done}}
	cs = connect(t, f, Options{Dir: repo})
	if _, text, _ := call(t, cs, "research_status", map[string]any{"name": "tides"}); !strings.Contains(text, ": running") || f.Calls() != "status:tides" {
		t.Errorf("no wait: %s (%s)", text, f.Calls())
	}
	res, text, _ := call(t, cs, "research_status", map[string]any{"name": "tides", "wait_seconds": 46})
	if !res.IsError || !strings.HasPrefix(text, "rgit: error: invalid wait_seconds 46: must be 0 to 45") {
		t.Errorf("wait_seconds 46: %s", text)
	}
}

// TestNames: a missing name is the only session; with several or none
// the tool says so; a bad or unknown name is the CLI's error.
func TestNames(t *testing.T) {
	repo := gitRepo(t)
	one := []ListItem{{Name: "tides", State: Running}}
	two := []ListItem{{Name: "tides"}, {Name: "kites"}}
	unknown := &phases.BadInputError{Msg: `no session named "nope"`, Hint: "run 'rgit list' to see the sessions here"}
	tests := []struct {
		name  string
		f     *fake
		args  map[string]any
		want  string
		calls string
	}{
		{"only session", &fake{items: one, statuses: []StatusView{running("c1")}}, nil, "session tides (research/tides): running", "list status:tides"},
		{"two sessions", &fake{items: two}, nil, "rgit: error: 2 sessions here; which one?\nrgit: hint: call research_list and pass one as name", "list"},
		{"no session", &fake{}, nil, "rgit: error: no research sessions here\nrgit: hint: start one with research_start", "list"},
		{"bad name", &fake{}, map[string]any{"name": "Tides!"}, "rgit: error: invalid session name \"Tides!\"", ""},
		{"unknown session", &fake{err: unknown, statuses: []StatusView{{}}}, map[string]any{"name": "nope"},
			"rgit: error: no session named \"nope\"\nrgit: hint: run 'rgit list' to see the sessions here", "status:nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := connect(t, tt.f, Options{Dir: repo})
			_, text, _ := call(t, cs, "research_status", tt.args)
			if !strings.HasPrefix(text, tt.want) {
				t.Errorf("text:\n%s\nwant:\n%s", text, tt.want)
			}
			if got := tt.f.Calls(); got != tt.calls {
				t.Errorf("calls %q, want %q", got, tt.calls)
			}
		})
	}
}

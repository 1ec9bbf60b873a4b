package gemini

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/proc"
	"github.com/rgit-dev/rgit/agents/proc/proctest"
)

var fakes string // the directory holding the fake CLIs

func TestMain(m *testing.M) {
	dir, cleanup, err := proctest.Setup()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fakes = dir
	code := m.Run()
	cleanup()
	os.Exit(code)
}

type fixture struct {
	proctest.Fixture
	agent *Agent
	task  agents.Task
}

func newFixture(t *testing.T, scenario string, env ...string) fixture {
	f := proctest.NewFixture(t, scenario, env...)
	return fixture{Fixture: f,
		agent: New(Options{Binary: filepath.Join(fakes, "gemini"), Env: f.Env, Grace: 100 * time.Millisecond}),
		task: agents.Task{Phase: agents.PhaseResearch, Prompt: "Research the topic X thoroughly.",
			Dir: f.Dir, Root: f.Root, Output: f.Output, Model: "gemini-2.5-flash-lite"},
	}
}

func TestRunSuccess(t *testing.T) {
	f := newFixture(t, "ok")
	res, err := f.agent.Run(context.Background(), f.task)
	if err != nil {
		t.Fatal(err)
	}
	// The deltas after the tool call, joined; the preamble before it dropped.
	if res.Text != "fake gemini answer: Research the topic X thoroughly." || res.SessionID == "" {
		t.Errorf("text %q session %q", res.Text, res.SessionID)
	}
	if !slices.Equal(res.Files, []string{"progress/topic.md"}) {
		t.Errorf("files %q", res.Files)
	}
	got := res.Usage
	got.Duration = 0
	if want := (agents.Usage{InputTokens: 8230, OutputTokens: 180, CachedTokens: 2110}); got != want {
		t.Errorf("usage = %+v, want %+v", got, want)
	}
	if b, err := os.ReadFile(f.task.Output); err != nil || string(b) != f.task.Prompt {
		t.Errorf("the agent could not write in the workspace: %v", err)
	}
	c := f.Calls(t)[0]
	if c.Cwd != f.task.Dir {
		t.Errorf("cwd %q", c.Cwd)
	}
	for _, w := range []string{"yolo", "--skip-trust", "stream-json", "gemini-2.5-flash-lite", f.task.Prompt} {
		if !slices.Contains(c.Args, w) {
			t.Errorf("args %q lack %q", c.Args, w)
		}
	}
}

func TestRunLongPromptViaStdin(t *testing.T) {
	f := newFixture(t, "ok")
	f.task.Prompt = strings.Repeat("long prompt ", proc.ArgMax/10)
	if _, err := f.agent.Run(context.Background(), f.task); err != nil {
		t.Fatal(err)
	}
	if c := f.Calls(t)[0]; c.Stdin != f.task.Prompt || slices.Contains(c.Args, f.task.Prompt) {
		t.Errorf("a %d-byte prompt was not sent on stdin", len(f.task.Prompt))
	}
}

func TestRunFailures(t *testing.T) {
	tests := []struct {
		scenario string
		kind     error
		msg      string
		exit     int
	}{
		{"auth", agents.ErrAuth, "Please set an Auth method", 41},
		{"badkey", agents.ErrAuth, "API key not valid", 144},
		{"ratelimit", agents.ErrRateLimited, "Please retry in 20.5s", 1},
		{"quota", agents.ErrQuota, "per day", 1},
		{"iserror", nil, "Reached max session turns", 53},
		{"truncated", nil, "without a result event", 0},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			f := newFixture(t, tt.scenario)
			_, err := f.agent.Run(context.Background(), f.task)
			var ce *agents.CallError
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v, want a CallError", err)
			}
			if ce.Kind != tt.kind || !strings.Contains(ce.Msg, tt.msg) || ce.Exit != tt.exit {
				t.Errorf("got kind %v exit %d msg %q, want %v %d %q", ce.Kind, ce.Exit, ce.Msg, tt.kind, tt.exit, tt.msg)
			}
		})
	}
}

func TestRunTimeoutKillsGroup(t *testing.T) {
	f := newFixture(t, "hang")
	f.task.Timeout = 2 * time.Second // time for the fake to spawn its grandchild
	_, err := f.agent.Run(context.Background(), f.task)
	if !errors.Is(err, agents.ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if !f.GrandchildDead(t) {
		t.Error("the grandchild survived the timeout")
	}
}

func TestRunResume(t *testing.T) {
	f := newFixture(t, "ok")
	first, err := f.agent.Run(context.Background(), f.task)
	if err != nil {
		t.Fatal(err)
	}
	f.task.SessionID = first.SessionID
	second, err := f.agent.Run(context.Background(), f.task)
	if err != nil || second.SessionID != first.SessionID {
		t.Fatalf("resume: %v, session %q vs %q", err, second.SessionID, first.SessionID)
	}
	args := f.Calls(t)[1].Args
	if i := slices.Index(args, "--resume"); i < 0 || args[i+1] != first.SessionID {
		t.Errorf("resume args %q", args)
	}
	f.task.SessionID = "0b0f2a43-1111-4c1e-9a2f-0d5e6b7c8a90"
	_, err = f.agent.Run(context.Background(), f.task)
	if err == nil || !strings.Contains(err.Error(), "Error resuming session") {
		t.Errorf("unknown session: %v", err)
	}
}

func TestRunOutputOutsideWorkspace(t *testing.T) {
	f := newFixture(t, "ok")
	f.task.Output = filepath.Join(f.task.Root, "reports", "s", "report.md")
	if _, err := f.agent.Run(context.Background(), f.task); err != nil {
		t.Fatal(err)
	}
	args := f.Calls(t)[0].Args
	if i := slices.Index(args, "--include-directories"); i < 0 || args[i+1] != filepath.Dir(f.task.Output) {
		t.Errorf("args %q", args)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"type":"init","timestamp":"t","session_id":"s","model":"auto"}`))
	f.Add([]byte(`{"type":"message","role":"assistant","content":"hi","delta":true}`))
	f.Add([]byte(`{"type":"result","status":"success","stats":{"input_tokens":1}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var p parser
		p.Line(line)
		_, err := p.Finish(proc.Result{}, nil)
		if (p.result == nil || p.result.Status != "success") && err == nil {
			t.Fatal("success without a successful result event")
		}
	})
}

package opencode

import (
	"context"
	"errors"
	"fmt"
	"math"
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
		agent: New(Options{Binary: filepath.Join(fakes, "opencode"), Env: f.Env, Grace: 100 * time.Millisecond}),
		task: agents.Task{Phase: agents.PhaseResearch, Prompt: "Research the topic X thoroughly.",
			Dir: f.Dir, Root: f.Root, Output: f.Output, Model: "opencode/minimax-m2.1-free"},
	}
}

func TestRunSuccess(t *testing.T) {
	f := newFixture(t, "ok")
	res, err := f.agent.Run(context.Background(), f.task)
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "fake opencode answer: Research the topic X thoroughly." || !strings.HasPrefix(res.SessionID, "ses_") {
		t.Errorf("text %q session %q", res.Text, res.SessionID)
	}
	if !slices.Equal(res.Files, []string{"progress/topic.md"}) {
		t.Errorf("files %q", res.Files)
	}
	// Two steps summed; cache reads count as input, reasoning as output.
	want := agents.Usage{InputTokens: 7952 + 397 + 7680, OutputTokens: 35 + 24 + 16 + 20, CachedTokens: 7680}
	got := res.Usage
	got.Duration, got.CostUSD = 0, 0
	if got != want || math.Abs(res.Usage.CostUSD-0.003) > 1e-9 {
		t.Errorf("usage = %+v, want %+v and cost 0.003", res.Usage, want)
	}
	if b, err := os.ReadFile(f.task.Output); err != nil || string(b) != f.task.Prompt {
		t.Errorf("the agent could not write in the workspace: %v", err)
	}
	c := f.Calls(t)[0]
	if c.Cwd != f.task.Dir || c.Env["OPENCODE_PERMISSION"] != Permission || c.Env["OPENCODE_ENABLE_EXA"] != "1" {
		t.Errorf("cwd %q env %v", c.Cwd, c.Env)
	}
	for _, w := range []string{"json", "opencode/minimax-m2.1-free", f.task.Prompt} {
		if !slices.Contains(c.Args, w) {
			t.Errorf("args %q lack %q", c.Args, w)
		}
	}
}

func TestRunPromptViaStdin(t *testing.T) {
	tests := []string{"- a prompt that looks like a flag", strings.Repeat("long prompt ", proc.ArgMax/10)}
	for _, prompt := range tests {
		f := newFixture(t, "ok")
		f.task.Prompt = prompt
		if _, err := f.agent.Run(context.Background(), f.task); err != nil {
			t.Fatal(err)
		}
		if c := f.Calls(t)[0]; c.Stdin != prompt || slices.Contains(c.Args, prompt) {
			t.Errorf("prompt %.20q was not sent on stdin", prompt)
		}
	}
}

func TestRunFailures(t *testing.T) {
	tests := []struct {
		scenario string
		env      []string
		kind     error
		msg      string
	}{
		{"auth", nil, agents.ErrAuth, "Incorrect API key provided"},
		{"ratelimit", nil, agents.ErrRateLimited, "Rate limit reached"},
		{"quota", nil, agents.ErrQuota, "Insufficient balance"},
		{"iserror", nil, nil, "invalid response"},
		{"truncated", nil, nil, "before the last step finished"},
		// Exit 0 with nothing but auto-rejected permissions is no success.
		{"ok", []string{"OPENCODE_PERMISSION="}, nil, "auto-rejecting"},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			f := newFixture(t, tt.scenario, tt.env...)
			_, err := f.agent.Run(context.Background(), f.task)
			var ce *agents.CallError
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v, want a CallError", err)
			}
			if ce.Kind != tt.kind || !strings.Contains(ce.Msg, tt.msg) {
				t.Errorf("got kind %v msg %q, want %v %q", ce.Kind, ce.Msg, tt.kind, tt.msg)
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
	if i := slices.Index(args, "--session"); i < 0 || args[i+1] != first.SessionID {
		t.Errorf("resume args %q", args)
	}
	f.task.SessionID = "ses_unknown"
	_, err = f.agent.Run(context.Background(), f.task)
	if err == nil || !strings.Contains(err.Error(), "Error: Session not found") {
		t.Errorf("unknown session: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"type":"text","sessionID":"ses_1","part":{"type":"text","text":"hi"}}`))
	f.Add([]byte(`{"type":"step_finish","sessionID":"ses_1","part":{"reason":"stop","cost":0.1,"tokens":{"input":1,"output":2,"reasoning":0,"cache":{"read":0,"write":0}}}}`))
	f.Add([]byte(`{"type":"error","error":{"name":"APIError","data":{"message":"x","statusCode":429}}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var p parser
		p.Line(line)
		_, err := p.Finish(proc.Result{}, nil)
		if len(p.answer) == 0 && err == nil {
			t.Fatal("success without an answer")
		}
	})
}

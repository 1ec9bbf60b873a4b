package codex

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

func newFixture(t *testing.T, scenario string, o Options, env ...string) fixture {
	f := proctest.NewFixture(t, scenario, env...)
	o.Binary, o.Env, o.Grace = filepath.Join(fakes, "codex"), f.Env, 100*time.Millisecond
	return fixture{Fixture: f, agent: New(o),
		task: agents.Task{Phase: agents.PhaseResearch, Prompt: "Research the topic X thoroughly.",
			Dir: f.Dir, Root: f.Root, Output: f.Output, Model: "gpt-5.1-codex-mini"},
	}
}

func TestRunSuccess(t *testing.T) {
	f := newFixture(t, "ok", Options{Effort: "low", Config: []string{`openai_base_url="http://127.0.0.1:9/v1"`}})
	res, err := f.agent.Run(context.Background(), f.task)
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "fake codex answer: Research the topic X thoroughly." || res.SessionID == "" {
		t.Errorf("text %q thread %q", res.Text, res.SessionID)
	}
	if !slices.Equal(res.Files, []string{"progress/topic.md"}) {
		t.Errorf("files %q", res.Files)
	}
	got := res.Usage
	got.Duration = 0
	if want := (agents.Usage{InputTokens: 31003, OutputTokens: 135, CachedTokens: 19968}); got != want {
		t.Errorf("usage = %+v, want %+v", got, want)
	}
	if b, err := os.ReadFile(f.task.Output); err != nil || string(b) != f.task.Prompt {
		t.Errorf("the agent could not write in the workspace: %v", err)
	}
	c := f.Calls(t)[0]
	if c.Cwd != f.task.Dir || c.Stdin != f.task.Prompt || c.Args[len(c.Args)-1] != "-" {
		t.Errorf("cwd %q stdin %q args %q", c.Cwd, c.Stdin, c.Args)
	}
	for _, w := range []string{"workspace-write", `model_reasoning_effort="low"`, `openai_base_url="http://127.0.0.1:9/v1"`, "gpt-5.1-codex-mini", `web_search="live"`} {
		if !slices.Contains(c.Args, w) {
			t.Errorf("args %q lack %q", c.Args, w)
		}
	}
}

func TestRunNoSandbox(t *testing.T) {
	f := newFixture(t, "ok", Options{NoSandbox: true})
	if _, err := f.agent.Run(context.Background(), f.task); err != nil {
		t.Fatal(err)
	}
	args := f.Calls(t)[0].Args
	if !slices.Contains(args, "--dangerously-bypass-approvals-and-sandbox") || slices.Contains(args, "--sandbox") {
		t.Errorf("args %q", args)
	}
}

func TestRunFailures(t *testing.T) {
	tests := []struct {
		scenario string
		kind     error
		msg      string
	}{
		{"auth", agents.ErrAuth, "401 Unauthorized"},
		{"ratelimit", agents.ErrRateLimited, "429 Too Many Requests"},
		{"quota", agents.ErrQuota, "Quota exceeded"},
		{"iserror", nil, "stream disconnected"},
		{"truncated", nil, "without turn.completed"},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			f := newFixture(t, tt.scenario, Options{})
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
	f := newFixture(t, "hang", Options{})
	f.task.Timeout = 2 * time.Second // time for the fake to spawn its grandchild
	res, err := f.agent.Run(context.Background(), f.task)
	if !errors.Is(err, agents.ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if res.SessionID == "" {
		t.Error("the thread id seen before the hang was lost")
	}
	if !f.GrandchildDead(t) {
		t.Error("the grandchild survived the timeout")
	}
}

func TestRunResume(t *testing.T) {
	f := newFixture(t, "ok", Options{})
	first, err := f.agent.Run(context.Background(), f.task)
	if err != nil {
		t.Fatal(err)
	}
	f.task.SessionID = first.SessionID
	second, err := f.agent.Run(context.Background(), f.task)
	if err != nil || second.SessionID != first.SessionID {
		t.Fatalf("resume: %v, thread %q vs %q", err, second.SessionID, first.SessionID)
	}
	args := f.Calls(t)[1].Args
	i := slices.Index(args, "resume")
	if i < 0 || args[i+1] != first.SessionID || slices.Index(args, "--sandbox") > i {
		t.Errorf("resume args %q", args)
	}
	f.task.SessionID = "0b0f2a43-1111-4c1e-9a2f-0d5e6b7c8a90"
	if _, err := f.agent.Run(context.Background(), f.task); err == nil || !strings.Contains(err.Error(), "no rollout found") {
		t.Errorf("unknown thread: %v", err)
	}
}

func TestRunOutputOutsideWorkspace(t *testing.T) {
	f := newFixture(t, "ok", Options{})
	f.task.Output = filepath.Join(f.task.Root, "reports", "s", "report.md")
	if _, err := f.agent.Run(context.Background(), f.task); err != nil {
		t.Fatal(err)
	}
	args := f.Calls(t)[0].Args
	if i := slices.Index(args, "--add-dir"); i < 0 || args[i+1] != filepath.Dir(f.task.Output) {
		t.Errorf("args %q", args)
	}
}

func TestStderrMessage(t *testing.T) {
	stderr := "WARNING: proceeding, even though we could not create PATH aliases\n" +
		"2026-11-21T19:30:03.715685Z ERROR codex_api::endpoint::responses_websocket: failed\n" +
		"Not inside a trusted directory and --skip-git-repo-check was not specified.\n"
	_, err := (&parser{}).Finish(proc.Result{Stderr: []byte(stderr), ExitCode: 1}, nil)
	var ce *agents.CallError
	if !errors.As(err, &ce) || ce.Msg != "Not inside a trusted directory and --skip-git-repo-check was not specified." || ce.Exit != 1 {
		t.Errorf("err = %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"type":"turn.completed","usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":2}}`))
	f.Add([]byte(`{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"x"}}`))
	f.Add([]byte(`{"type":"turn.failed","error":{"message":"boom"}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var p parser
		p.Line(line)
		_, err := p.Finish(proc.Result{}, nil)
		if p.completed == nil && err == nil {
			t.Fatal("success without turn.completed")
		}
	})
}

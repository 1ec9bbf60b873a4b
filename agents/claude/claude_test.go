package claude

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

// fixture is a workspace, a claude backend on the fake and a task.
type fixture struct {
	proctest.Fixture
	agent *Agent
	task  agents.Task
}

func newFixture(t *testing.T, scenario string, env ...string) fixture {
	f := proctest.NewFixture(t, scenario, env...)
	return fixture{Fixture: f,
		agent: New(Options{Binary: filepath.Join(fakes, "claude"), Env: f.Env, Grace: 100 * time.Millisecond}),
		task: agents.Task{Phase: agents.PhaseResearch, Prompt: "Research the topic X thoroughly.",
			Dir: f.Dir, Root: f.Root, Output: f.Output, Model: "claude-haiku-4-5-20251001"},
	}
}

func TestRunSuccess(t *testing.T) {
	f := newFixture(t, "ok")
	res, err := f.agent.Run(context.Background(), f.task)
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "fake claude answer: Research the topic X thoroughly." || res.SessionID == "" {
		t.Errorf("text %q session %q", res.Text, res.SessionID)
	}
	if !slices.Equal(res.Files, []string{"progress/topic.md"}) {
		t.Errorf("files %q", res.Files)
	}
	want := agents.Usage{InputTokens: 1200 + 2521 + 5015, OutputTokens: 340, CachedTokens: 5015, CostUSD: 0.0325}
	got := res.Usage
	got.Duration = 0
	if got != want || res.Usage.Duration <= 0 {
		t.Errorf("usage = %+v, want %+v with a duration", res.Usage, want)
	}
	b, err := os.ReadFile(f.task.Output)
	if err != nil || string(b) != f.task.Prompt {
		t.Errorf("the agent could not write its output in the workspace: %v", err)
	}
	c := f.Calls(t)[0]
	if c.Cwd != f.task.Dir || c.Stdin != f.task.Prompt {
		t.Errorf("cwd %q stdin %q", c.Cwd, c.Stdin)
	}
	for _, w := range []string{"--permission-mode", "acceptEdits", "--model", "claude-haiku-4-5-20251001", "--verbose"} {
		if !slices.Contains(c.Args, w) {
			t.Errorf("args %q lack %q", c.Args, w)
		}
	}
	if slices.Contains(c.Args, "--dangerously-skip-permissions") || slices.Contains(c.Args, "--add-dir") {
		t.Errorf("unexpected args %q", c.Args)
	}
}

func TestRunFailures(t *testing.T) {
	tests := []struct {
		scenario string
		kind     error
		msg      string
	}{
		{"auth", agents.ErrAuth, "Not logged in"},
		{"badkey", agents.ErrAuth, "Invalid API key"},
		{"ratelimit", agents.ErrRateLimited, "(429)"},
		{"quota", agents.ErrQuota, "Credit balance is too low"},
		{"iserror", nil, "Reached maximum number of turns"},
		{"truncated", nil, "without a result event"},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			f := newFixture(t, tt.scenario)
			_, err := f.agent.Run(context.Background(), f.task)
			var ce *agents.CallError
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v, want a CallError", err)
			}
			if ce.Kind != tt.kind || !strings.Contains(ce.Msg, tt.msg) || ce.Backend != Name {
				t.Errorf("got kind %v msg %q, want %v %q", ce.Kind, ce.Msg, tt.kind, tt.msg)
			}
		})
	}
}

func TestRunRedactsKey(t *testing.T) {
	const key = "sk-ant-api03-DoNotLeakThis0123456789"
	f := newFixture(t, "leakkey", "ANTHROPIC_API_KEY="+key)
	res, err := f.agent.Run(context.Background(), f.task)
	if !errors.Is(err, agents.ErrAuth) {
		t.Fatalf("err = %v, want ErrAuth", err)
	}
	if strings.Contains(err.Error(), key) || strings.Contains(fmt.Sprintf("%+v", res), key) {
		t.Errorf("key leaked: %v", err)
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
	if args := f.Calls(t)[1].Args; !slices.Contains(args, "--resume="+first.SessionID) {
		t.Errorf("resume args %q", args)
	}
	f.task.SessionID = "0b0f2a43-1111-4c1e-9a2f-0d5e6b7c8a90"
	_, err = f.agent.Run(context.Background(), f.task)
	if err == nil || !strings.Contains(err.Error(), "No conversation found") {
		t.Errorf("unknown session: %v", err)
	}
}

func TestRunOutputOutsideWorkspace(t *testing.T) {
	f := newFixture(t, "ok")
	report := filepath.Join(f.task.Root, "reports", "s", "report.md")
	f.task.Output = report
	if _, err := f.agent.Run(context.Background(), f.task); err != nil {
		t.Fatal(err)
	}
	args := f.Calls(t)[0].Args
	if i := slices.Index(args, "--add-dir"); i < 0 || args[i+1] != filepath.Dir(report) {
		t.Errorf("args %q do not grant %s", args, filepath.Dir(report))
	}
}

func TestRunNotInstalled(t *testing.T) {
	a := New(Options{Binary: filepath.Join(t.TempDir(), "claude")})
	_, err := a.Run(context.Background(), agents.Task{Dir: t.TempDir(), Prompt: "x"})
	if !errors.Is(err, agents.ErrNotInstalled) {
		t.Errorf("err = %v", err)
	}
}

func TestRunConcurrent(t *testing.T) {
	f := newFixture(t, "ok")
	sessions := make([]string, 4)
	errs := make(chan error, len(sessions))
	for i := range sessions {
		go func() {
			task := f.task
			task.Output = filepath.Join(f.Dir, fmt.Sprintf("out%d.md", i))
			res, err := f.agent.Run(context.Background(), task)
			sessions[i] = res.SessionID
			errs <- err
		}()
	}
	for range sessions {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	slices.Sort(sessions)
	if len(slices.Compact(sessions)) != len(sessions) {
		t.Errorf("sessions %q are not distinct", sessions)
	}
}

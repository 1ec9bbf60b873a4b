package codex

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/proc"
	"github.com/rgit-dev/rgit/agents/proc/proctest"
)

func TestMain(m *testing.M) { proctest.Main(m) }

var backend = proctest.Backend{Name: Name, Model: "gpt-5.1-codex-mini",
	New: func(binary string, env []string) agents.Agent {
		return New(Options{Binary: binary, Env: env, Grace: proctest.Grace})
	},
	// The prompt ("-") follows the thread id.
	Resume:         func(id string) []string { return []string{"resume", id, "-"} },
	UnknownSession: "0b0f2a43-1111-4c1e-9a2f-0d5e6b7c8a90", UnknownError: "no rollout found",
	AddDir: "--add-dir",
}

// fixture is backend.Fixture with the backend's options o.
func fixture(t *testing.T, scenario string, o Options) proctest.Fixture {
	f := backend.Fixture(t, scenario)
	o.Binary, o.Env, o.Grace = proctest.Fake(Name), f.Env, proctest.Grace
	f.Agent = New(o)
	return f
}

func TestCommon(t *testing.T) { backend.TestCommon(t) }

func TestRunSuccess(t *testing.T) {
	f := fixture(t, "ok", Options{Effort: "low", Config: []string{`openai_base_url="http://127.0.0.1:9/v1"`}})
	res, c := backend.RunOK(t, f, "workspace-write", `model_reasoning_effort="low"`, `openai_base_url="http://127.0.0.1:9/v1"`, "gpt-5.1-codex-mini", `web_search="live"`)
	got := res.Usage
	got.Duration = 0
	if want := (agents.Usage{InputTokens: 31003, OutputTokens: 135, CachedTokens: 19968}); got != want {
		t.Errorf("usage = %+v, want %+v", got, want)
	}
	if c.Stdin != f.Task.Prompt || c.Args[len(c.Args)-1] != "-" {
		t.Errorf("stdin %q args %q", c.Stdin, c.Args)
	}
}

func TestRunNoSandbox(t *testing.T) {
	f := fixture(t, "ok", Options{NoSandbox: true})
	if _, err := f.Run(); err != nil {
		t.Fatal(err)
	}
	args := f.Calls(t)[0].Args
	if !slices.Contains(args, "--dangerously-bypass-approvals-and-sandbox") || slices.Contains(args, "--sandbox") {
		t.Errorf("args %q", args)
	}
}

func TestRunFailures(t *testing.T) {
	backend.TestFailures(t, []proctest.Failure{
		{Scenario: "auth", Kind: agents.ErrAuth, Msg: "401 Unauthorized", Exit: 1},
		{Scenario: "ratelimit", Kind: agents.ErrRateLimited, Msg: "429 Too Many Requests", Exit: 1},
		{Scenario: "quota", Kind: agents.ErrQuota, Msg: "Quota exceeded", Exit: 1},
		{Scenario: "iserror", Msg: "stream disconnected", Exit: 1},
		{Scenario: "truncated", Msg: "without turn.completed", Exit: 0},
	})
}

// Every option goes before `resume`: --sandbox, --cd and --add-dir are
// rejected after it.
func TestArgsResume(t *testing.T) {
	dir := t.TempDir()
	task := agents.Task{Dir: dir, SessionID: "0b0f2a43", Output: filepath.Join(filepath.Dir(dir), "report.md")}
	args := New(Options{}).Args(task)
	i := slices.Index(args, "resume")
	if i < 0 || !slices.Equal(args[i:], []string{"resume", "0b0f2a43", "-"}) {
		t.Fatalf("args %q do not end in the resume", args)
	}
	for _, opt := range []string{"--sandbox", "--cd", "--add-dir", "--json"} {
		if j := slices.Index(args, opt); j < 0 || j > i {
			t.Errorf("%s missing or after resume in %q", opt, args)
		}
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

package gemini

import (
	"slices"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/proc"
	"github.com/rgit-dev/rgit/agents/proc/proctest"
)

func TestMain(m *testing.M) { proctest.Main(m) }

var backend = proctest.Backend{Name: Name, Model: "gemini-2.5-flash-lite",
	New: func(binary string, env []string) agents.Agent {
		return New(Options{Binary: binary, Env: env, Grace: proctest.Grace})
	},
	Resume:         func(id string) []string { return []string{"--resume", id} },
	UnknownSession: "0b0f2a43-1111-4c1e-9a2f-0d5e6b7c8a90", UnknownError: "Error resuming session",
	AddDir: "--include-directories",
}

func TestCommon(t *testing.T) { backend.TestCommon(t) }

func TestRunSuccess(t *testing.T) {
	// The answer is the deltas after the tool call, joined; the preamble
	// before it is dropped.
	f := backend.Fixture(t, "ok")
	res, _ := backend.RunOK(t, f, "yolo", "--skip-trust", "stream-json", "gemini-2.5-flash-lite", f.Task.Prompt)
	got := res.Usage
	got.Duration = 0
	if want := (agents.Usage{InputTokens: 8230, OutputTokens: 180, CachedTokens: 2110}); got != want {
		t.Errorf("usage = %+v, want %+v", got, want)
	}
}

func TestRunLongPromptViaStdin(t *testing.T) {
	f := backend.Fixture(t, "ok")
	f.Task.Prompt = strings.Repeat("long prompt ", proc.ArgMax/10)
	if _, err := f.Run(); err != nil {
		t.Fatal(err)
	}
	if c := f.Calls(t)[0]; c.Stdin != f.Task.Prompt || slices.Contains(c.Args, f.Task.Prompt) {
		t.Errorf("a %d-byte prompt was not sent on stdin", len(f.Task.Prompt))
	}
}

func TestRunFailures(t *testing.T) {
	backend.TestFailures(t, []proctest.Failure{
		{Scenario: "auth", Kind: agents.ErrAuth, Msg: "Please set an Auth method", Exit: 41},
		{Scenario: "badkey", Kind: agents.ErrAuth, Msg: "API key not valid", Exit: 144},
		{Scenario: "ratelimit", Kind: agents.ErrRateLimited, Msg: "Please retry in 20.5s", Exit: 1},
		{Scenario: "quota", Kind: agents.ErrQuota, Msg: "per day", Exit: 1},
		{Scenario: "iserror", Msg: "Reached max session turns", Exit: 53},
		{Scenario: "truncated", Msg: "without a result event", Exit: 0},
	})
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

package opencode

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/proc"
	"github.com/rgit-dev/rgit/agents/proc/proctest"
)

func TestMain(m *testing.M) { proctest.Main(m) }

// opencode has no flag for an output outside the workspace: the
// external_directory permission is granted with all others (Permission).
var backend = proctest.Backend{Name: Name, Model: "opencode/minimax-m2.1-free",
	New: func(binary string, env []string) agents.Agent {
		return New(Options{Binary: binary, Env: env, Grace: proctest.Grace})
	},
	Resume:         func(id string) []string { return []string{"--session", id} },
	UnknownSession: "ses_unknown", UnknownError: "Error: Session not found",
}

func TestCommon(t *testing.T) { backend.TestCommon(t) }

func TestRunSuccess(t *testing.T) {
	f := backend.Fixture(t, "ok")
	res, c := backend.RunOK(t, f, "json", "opencode/minimax-m2.1-free", f.Task.Prompt)
	if !strings.HasPrefix(res.SessionID, "ses_") {
		t.Errorf("session %q", res.SessionID)
	}
	// Two steps summed; cache reads count as input, reasoning as output.
	want := agents.Usage{InputTokens: 7952 + 397 + 7680, OutputTokens: 35 + 24 + 16 + 20, CachedTokens: 7680}
	got := res.Usage
	got.Duration, got.CostUSD = 0, 0
	if got != want || math.Abs(res.Usage.CostUSD-0.003) > 1e-9 {
		t.Errorf("usage = %+v, want %+v and cost 0.003", res.Usage, want)
	}
	if c.Env["OPENCODE_PERMISSION"] != Permission || c.Env["OPENCODE_ENABLE_EXA"] != "1" {
		t.Errorf("env %v", c.Env)
	}
}

func TestRunPromptViaStdin(t *testing.T) {
	tests := []string{"- a prompt that looks like a flag", strings.Repeat("long prompt ", proc.ArgMax/10)}
	for _, prompt := range tests {
		f := backend.Fixture(t, "ok")
		f.Task.Prompt = prompt
		if _, err := f.Run(); err != nil {
			t.Fatal(err)
		}
		if c := f.Calls(t)[0]; c.Stdin != prompt || slices.Contains(c.Args, prompt) {
			t.Errorf("prompt %.20q was not sent on stdin", prompt)
		}
	}
}

func TestRunFailures(t *testing.T) {
	backend.TestFailures(t, []proctest.Failure{
		{Scenario: "auth", Kind: agents.ErrAuth, Msg: "Incorrect API key provided", Exit: 1},
		{Scenario: "ratelimit", Kind: agents.ErrRateLimited, Msg: "Rate limit reached", Exit: 1},
		{Scenario: "quota", Kind: agents.ErrQuota, Msg: "Insufficient balance", Exit: 1},
		{Scenario: "iserror", Msg: "invalid response", Exit: 1},
		{Scenario: "truncated", Msg: "before the last step finished", Exit: 0},
		// Exit 0 with nothing but auto-rejected permissions is no success.
		{Scenario: "ok", Env: []string{"OPENCODE_PERMISSION="}, Msg: "auto-rejecting", Exit: 0},
	})
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

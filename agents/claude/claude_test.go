package claude

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/proc/proctest"
)

func TestMain(m *testing.M) { proctest.Main(m) }

var backend = proctest.Backend{Name: Name, Model: "claude-haiku-4-5-20251001",
	New: func(binary string, env []string) agents.Agent {
		return New(Options{Binary: binary, Env: env, Grace: proctest.Grace})
	},
	Resume:         func(id string) []string { return []string{"--resume=" + id} },
	UnknownSession: "0b0f2a43-1111-4c1e-9a2f-0d5e6b7c8a90", UnknownError: "No conversation found",
	AddDir: "--add-dir",
}

func TestCommon(t *testing.T) { backend.TestCommon(t) }

func TestRunSuccess(t *testing.T) {
	f := backend.Fixture(t, "ok")
	res, c := backend.RunOK(t, f, "--permission-mode", "acceptEdits", "--model", "claude-haiku-4-5-20251001", "--verbose")
	want := agents.Usage{InputTokens: 1200 + 2521 + 5015, OutputTokens: 340, CachedTokens: 5015, CostUSD: 0.0325}
	got := res.Usage
	got.Duration = 0
	if got != want || res.Usage.Duration <= 0 {
		t.Errorf("usage = %+v, want %+v with a duration", res.Usage, want)
	}
	if c.Stdin != f.Task.Prompt || slices.Contains(c.Args, "--dangerously-skip-permissions") {
		t.Errorf("stdin %q args %q", c.Stdin, c.Args)
	}
}

func TestRunFailures(t *testing.T) {
	backend.TestFailures(t, []proctest.Failure{
		{Scenario: "auth", Kind: agents.ErrAuth, Msg: "Not logged in", Exit: 1},
		{Scenario: "badkey", Kind: agents.ErrAuth, Msg: "Invalid API key", Exit: 1},
		{Scenario: "ratelimit", Kind: agents.ErrRateLimited, Msg: "(429)", Exit: 1},
		{Scenario: "quota", Kind: agents.ErrQuota, Msg: "Credit balance is too low", Exit: 1},
		{Scenario: "iserror", Msg: "Reached maximum number of turns", Exit: 1},
		{Scenario: "truncated", Msg: "without a result event", Exit: 0},
	})
}

func TestRunRedactsKey(t *testing.T) {
	const key = "sk-ant-api03-DoNotLeakThis0123456789"
	res, err := backend.Fixture(t, "leakkey", "ANTHROPIC_API_KEY="+key).Run()
	if !errors.Is(err, agents.ErrAuth) {
		t.Fatalf("err = %v, want ErrAuth", err)
	}
	if strings.Contains(err.Error(), key) || strings.Contains(fmt.Sprintf("%+v", res), key) {
		t.Errorf("key leaked: %v", err)
	}
}

// Package codex drives the OpenAI Codex CLI (`codex exec --json`) as an
// agents.Agent: one headless turn per call in the task's workspace, its
// JSONL events parsed into the answer, thread id and tokens (Codex reports
// no cost).
package codex

import (
	"context"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/proc"
)

// Name is the backend name.
const Name = "codex"

// Options configures the backend.
type Options struct {
	// Binary is the codex executable; "" looks up "codex" on PATH.
	Binary string
	// Env is added to the inherited environment (KEY=value entries).
	Env []string
	// Effort sets model_reasoning_effort (minimal, low, medium, high,
	// xhigh); "" keeps the configured default.
	Effort string
	// NoSandbox runs with --dangerously-bypass-approvals-and-sandbox
	// instead of the workspace-write sandbox, for hosts that are already
	// sandboxed and where Codex's own sandbox cannot start (containers
	// without Landlock).
	NoSandbox bool
	// Config holds extra `-c key=value` overrides (TOML values), for
	// example `openai_base_url="http://localhost:8080/v1"`: Codex no longer
	// reads OPENAI_BASE_URL.
	Config []string
	// Grace is the wait between the signals of a timeout (see proc.Cmd).
	Grace time.Duration
}

// Agent is the Codex backend. It is safe for concurrent use: every Run is
// a process of its own.
type Agent struct{ o Options }

// New returns a Codex backend.
func New(o Options) *Agent { return &Agent{o: o} }

// Name returns "codex".
func (a *Agent) Name() string { return Name }

// Run executes one phase with `codex exec`; the prompt goes through stdin
// ("-"), which has no argument-length limit.
func (a *Agent) Run(ctx context.Context, t agents.Task) (agents.Result, error) {
	return proc.RunTask(ctx, t, proc.Call{Backend: Name, Binary: a.o.Binary, Args: a.Args(t),
		Stdin: t.Prompt, Env: proc.Environ(a.o.Env...), Grace: a.o.Grace}, &parser{dir: t.Dir, passed: t.Model})
}

// Args returns the command line (without the program) for task t. Every
// option goes between `exec` and `resume`: --sandbox, --cd and --add-dir
// are rejected after `resume`, and the others are global.
func (a *Agent) Args(t agents.Task) []string {
	args := []string{"exec", "--json", "--skip-git-repo-check", "--cd", t.Dir}
	if a.o.NoSandbox {
		args = append(args, "--dangerously-bypass-approvals-and-sandbox")
	} else {
		// workspace-write has no network unless asked for, and research
		// needs it (curl, pip, fetching sources).
		args = append(args, "--sandbox", "workspace-write", "-c", "sandbox_workspace_write.network_access=true")
	}
	args = append(args, "-c", `web_search="live"`)
	if a.o.Effort != "" {
		args = append(args, "-c", `model_reasoning_effort="`+a.o.Effort+`"`)
	}
	for _, kv := range a.o.Config {
		args = append(args, "-c", kv)
	}
	if t.Model != "" {
		args = append(args, "--model", t.Model)
	}
	if d := proc.ExtraDir(t); d != "" {
		args = append(args, "--add-dir", d)
	}
	if t.SessionID != "" {
		args = append(args, "resume", t.SessionID)
	}
	return append(args, "-")
}

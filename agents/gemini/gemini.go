// Package gemini drives the Gemini CLI (`gemini -p`) as an agents.Agent:
// one headless run per call in the task's workspace, its stream-json
// events parsed into the answer, session id and tokens (Gemini reports no
// cost).
package gemini

import (
	"context"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/proc"
)

// Name is the backend name.
const Name = "gemini"

// exitAuth is the Gemini CLI's exit status for FatalAuthenticationError;
// its message varies (no auth method, bad settings), the status does not.
const exitAuth = 41

// Options configures the backend.
type Options struct {
	// Binary is the gemini executable; "" looks up "gemini" on PATH.
	Binary string
	// Env is added to the inherited environment (KEY=value entries).
	Env []string
	// Grace is the wait between the signals of a timeout (see proc.Cmd).
	Grace time.Duration
}

// Agent is the Gemini CLI backend. It is safe for concurrent use: every Run is
// a process of its own.
type Agent struct{ o Options }

// New returns a Gemini CLI backend.
func New(o Options) *Agent { return &Agent{o: o} }

// Name returns "gemini".
func (a *Agent) Name() string { return Name }

// Run executes one phase with `gemini -p`.
func (a *Agent) Run(ctx context.Context, t agents.Task) (agents.Result, error) {
	args, stdin := a.Args(t)
	return proc.RunTask(ctx, t, proc.Call{Backend: Name, Binary: a.o.Binary, Args: args,
		Stdin: stdin, Env: proc.Environ(a.o.Env...), Grace: a.o.Grace}, &parser{dir: t.Dir, passed: t.Model})
}

// Args returns the command line (without the program) for task t and what
// to write to stdin. -p is always given, since a positional prompt means
// interactive mode; a prompt too long for an argument goes through stdin,
// to which -p is appended. --skip-trust is needed for yolo: in an
// untrusted folder the CLI silently drops back to the default approval
// mode, or exits 55.
func (a *Agent) Args(t agents.Task) (args []string, stdin string) {
	prompt := t.Prompt
	if len(prompt) > proc.ArgMax {
		stdin, prompt = prompt, "Follow the instructions above."
	}
	args = []string{"-p", prompt, "--output-format", "stream-json", "--approval-mode", "yolo", "--skip-trust"}
	if t.Model != "" {
		args = append(args, "--model", t.Model)
	}
	if t.SessionID != "" {
		args = append(args, "--resume", t.SessionID)
	}
	if d := proc.ExtraDir(t); d != "" {
		args = append(args, "--include-directories", d)
	}
	return args, stdin
}

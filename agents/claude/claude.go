// Package claude drives Claude Code (`claude -p`) as an agents.Agent: one
// non-interactive run per call in the task's workspace, its stream-json
// output parsed into the answer, session id, tokens and cost.
package claude

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/proc"
)

// Name is the backend name.
const Name = "claude"

// Tools are pre-approved for a run. Edit and Write are deliberately
// absent: --permission-mode acceptEdits approves them inside the working
// directories only (the workspace, and the output's folder added with
// --add-dir). That mode works as root too, where bypassPermissions is
// refused unless IS_SANDBOX=1.
var Tools = []string{"Read", "Glob", "Grep", "LS", "WebSearch", "WebFetch", "TodoWrite", "Bash"}

// Options configures the backend.
type Options struct {
	// Binary is the claude executable; "" looks up "claude" on PATH.
	Binary string
	// Env is added to the inherited environment (KEY=value entries).
	Env []string
	// MaxTurns bounds agentic turns per call; 0 keeps the CLI's default.
	MaxTurns int
	// Grace is the wait between the signals of a timeout (see proc.Cmd).
	Grace time.Duration
}

// Agent is the Claude Code backend. It is safe for concurrent use: every Run is
// a process of its own.
type Agent struct{ o Options }

// New returns a Claude Code backend.
func New(o Options) *Agent { return &Agent{o: o} }

// Name returns "claude".
func (a *Agent) Name() string { return Name }

// Run executes one phase with `claude -p`. The prompt goes through stdin,
// which also keeps it away from the variadic --add-dir and --allowedTools
// options that would swallow a positional prompt.
func (a *Agent) Run(ctx context.Context, t agents.Task) (agents.Result, error) {
	env := proc.Environ(append([]string{"CLAUDECODE="}, a.o.Env...)...)
	return proc.RunTask(ctx, t, proc.Call{Backend: Name, Binary: a.o.Binary, Args: a.Args(t),
		Stdin: t.Prompt, Env: env, Grace: a.o.Grace}, &parser{dir: t.Dir})
}

// Args returns the command line (without the program) for task t.
func (a *Agent) Args(t agents.Task) []string {
	args := []string{"-p", "--output-format", "stream-json", "--verbose",
		"--permission-mode", "acceptEdits", "--allowedTools", strings.Join(Tools, ",")}
	if t.Model != "" {
		args = append(args, "--model", t.Model)
	}
	if t.SessionID != "" {
		// The equals form: --resume takes an optional value, so a separate
		// word starting with "-" would be read as a flag.
		args = append(args, "--resume="+t.SessionID)
	}
	if a.o.MaxTurns > 0 {
		args = append(args, "--max-turns", strconv.Itoa(a.o.MaxTurns))
	}
	if d := proc.ExtraDir(t); d != "" {
		args = append(args, "--add-dir", d)
	}
	return args
}

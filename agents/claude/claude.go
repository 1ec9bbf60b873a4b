// Package claude drives Claude Code (`claude -p`) as an agents.Agent: one
// non-interactive run per call in the task's workspace, its stream-json
// output parsed into the answer, session id, tokens and cost.
package claude

import (
	"context"
	"os"
	"path/filepath"
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
	if err := outputDir(t); err != nil {
		return agents.Result{}, &agents.CallError{Backend: Name, Msg: err.Error()}
	}
	env := proc.Environ(append([]string{"CLAUDECODE="}, a.o.Env...)...)
	p := parser{dir: t.Dir}
	res, err := proc.Invoke(ctx, Name, proc.Cmd{
		Path: binary(a.o.Binary, Name), Args: a.Args(t), Dir: t.Dir, Env: env,
		Stdin: strings.NewReader(t.Prompt), Timeout: t.Timeout, Grace: a.o.Grace, OnLine: p.line,
	})
	out := agents.Result{SessionID: p.session, ExitCode: res.ExitCode}
	out.Usage.Duration = res.Duration
	if err != nil {
		return out, err
	}
	return p.finish(res, env)
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
	if d := extraDir(t); d != "" {
		args = append(args, "--add-dir", d)
	}
	return args
}

// extraDir is the output's folder when it lies outside the workspace (the
// report of the synthesize phase), so the agent may write it.
func extraDir(t agents.Task) string {
	if t.Output == "" {
		return ""
	}
	d := filepath.Dir(t.Output)
	if rel, err := filepath.Rel(t.Dir, d); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return ""
	}
	return d
}

// outputDir creates the output's folder: the CLI cannot be granted, nor
// write into, a directory that does not exist.
func outputDir(t agents.Task) error {
	if t.Output == "" {
		return nil
	}
	return os.MkdirAll(filepath.Dir(t.Output), 0o755)
}

func binary(path, name string) string {
	if path != "" {
		return path
	}
	return name
}

// Package opencode drives opencode (`opencode run --format json`) as an
// agents.Agent: one run per call in the task's workspace, its JSON events
// parsed into the answer, session id, tokens and cost.
package opencode

import (
	"context"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/proc"
)

// Name is the backend name.
const Name = "opencode"

// Permission is the OPENCODE_PERMISSION value of every run. Without it
// `opencode run` auto-rejects each permission prompt (writing a file,
// fetching a page) and still exits 0 with no answer. The environment
// variable works across versions, where the flag changed name
// (--dangerously-skip-permissions up to 1.17, --auto from 1.18).
const Permission = `{"*":"allow"}`

// Options configures the backend.
type Options struct {
	// Binary is the opencode executable; "" looks up "opencode" on PATH.
	Binary string
	// Env is added to the inherited environment (KEY=value entries).
	Env []string
	// Grace is the wait between the signals of a timeout (see proc.Cmd).
	Grace time.Duration
}

// Agent is the opencode backend. It is safe for concurrent use: every Run is
// a process of its own.
type Agent struct{ o Options }

// New returns an opencode backend.
func New(o Options) *Agent { return &Agent{o: o} }

// Name returns "opencode".
func (a *Agent) Name() string { return Name }

// Run executes one phase with `opencode run`.
func (a *Agent) Run(ctx context.Context, t agents.Task) (agents.Result, error) {
	// OPENCODE_ENABLE_EXA turns on the websearch tool for every provider,
	// not only opencode's own.
	env := proc.Environ(append([]string{"OPENCODE_PERMISSION=" + Permission, "OPENCODE_ENABLE_EXA=1"}, a.o.Env...)...)
	args, stdin := a.Args(t)
	return proc.RunTask(ctx, t, proc.Call{Backend: Name, Binary: a.o.Binary, Args: args,
		Stdin: stdin, Env: env, Grace: a.o.Grace}, &parser{dir: t.Dir, passed: t.Model})
}

// Args returns the command line (without the program) for task t and what
// to write to stdin. opencode appends piped stdin to the message, so a
// prompt too long for an argument, or one starting with "-" (which yargs
// would read as a flag), goes through stdin behind a short message.
func (a *Agent) Args(t agents.Task) (args []string, stdin string) {
	args = []string{"run", "--format", "json", "--dir", t.Dir}
	if t.Model != "" {
		args = append(args, "--model", t.Model)
	}
	if t.SessionID != "" {
		args = append(args, "--session", t.SessionID)
	}
	msg := t.Prompt
	if len(msg) > proc.ArgMax || strings.HasPrefix(msg, "-") {
		stdin, msg = msg, "Follow the instructions below."
	}
	return append(args, msg), stdin
}

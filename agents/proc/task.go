package proc

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/redact"
)

// Parser reads one CLI's output format: it sees every stdout line of a
// call, and decides the outcome of a call that ran.
type Parser interface {
	// Line receives one stdout line (see Cmd.OnLine).
	Line(b []byte)
	// Session is the session id seen so far, kept even when the call did
	// not finish so the conversation can be resumed.
	Session() string
	// Finish turns the parsed output and res into the call's result; env
	// is the call's environment, to redact messages with.
	Finish(res Result, env []string) (agents.Result, error)
}

// Call is one run of a CLI backend for a task.
type Call struct {
	Backend string   // the backend's name, also the binary's default name
	Binary  string   // the executable; "" looks up Backend on PATH
	Args    []string // arguments, without argv[0]
	Stdin   string
	Env     []string      // the complete environment (see Environ)
	Grace   time.Duration // the wait between the signals of a timeout
}

// RunTask runs c in t's workspace under t.Timeout, with p reading its
// stdout. It first creates the output's folder: the CLIs cannot be granted,
// nor write into, a directory that does not exist. A call that ran is
// decided by p.Finish; one that did not (not installed, timed out,
// canceled) returns Invoke's error with the session seen so far. The
// answer comes back with the secrets of c.Env removed, as errors do.
func RunTask(ctx context.Context, t agents.Task, c Call, p Parser) (agents.Result, error) {
	if t.Output != "" {
		if err := os.MkdirAll(filepath.Dir(t.Output), 0o755); err != nil {
			return agents.Result{}, &agents.CallError{Backend: c.Backend, Msg: err.Error()}
		}
	}
	bin := c.Binary
	if bin == "" {
		bin = c.Backend
	}
	res, err := Invoke(ctx, c.Backend, Cmd{
		Path: bin, Args: c.Args, Dir: t.Dir, Env: c.Env, Stdin: strings.NewReader(c.Stdin),
		Timeout: t.Timeout, Grace: c.Grace, OnLine: p.Line,
	})
	if err != nil {
		out := agents.Result{SessionID: p.Session(), ExitCode: res.ExitCode}
		out.Usage.Duration = res.Duration
		return out, err
	}
	out, err := p.Finish(res, c.Env)
	out.Text = redact.New(c.Env).String(out.Text)
	return out, err
}

// ExtraDir returns the output's folder when it lies outside the workspace
// (the report of the synthesize phase), which the CLI must be granted to
// write there; "" when there is no output or it is inside.
func ExtraDir(t agents.Task) string {
	if t.Output == "" {
		return ""
	}
	d := filepath.Dir(t.Output)
	if rel, err := filepath.Rel(t.Dir, d); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return ""
	}
	return d
}

// DecodeLine decodes one line of a CLI's JSON event stream into v and
// reports whether it was an event: lines that are not JSON objects (some
// builds print debug lines on stdout) or do not decode are not.
func DecodeLine(b []byte, v any) bool {
	if !bytes.HasPrefix(bytes.TrimSpace(b), []byte("{")) {
		return false
	}
	return json.Unmarshal(b, v) == nil
}

// StripANSI removes the terminal colour sequences (ESC [ ... m) from s.
func StripANSI(s string) string {
	for {
		i := strings.Index(s, "\x1b[")
		if i < 0 {
			return s
		}
		j := strings.IndexByte(s[i:], 'm')
		if j < 0 {
			return s
		}
		s = s[:i] + s[i+j+1:]
	}
}

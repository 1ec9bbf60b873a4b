package proc

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/redact"
)

// ArgMax is the longest prompt the backends pass as a command-line
// argument; Linux refuses single arguments over 128 KiB (MAX_ARG_STRLEN),
// so longer prompts go through stdin.
const ArgMax = 100 << 10

// Invoke runs c for the named backend and turns the failures every CLI
// shares into *agents.CallError: a missing binary is ErrNotInstalled, the
// deadline (Cmd.Timeout or ctx's) is ErrTimeout. Cancellation of ctx is
// returned as ctx.Err() wrapped, so callers can tell a user's interrupt
// from a failing agent. Its messages name only the binary and the
// timeout, never what the process said (Fail redacts that).
func Invoke(ctx context.Context, backend string, c Cmd) (Result, error) {
	res, err := Run(ctx, c)
	switch {
	case err == nil:
		return res, nil
	case errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist):
		return res, &agents.CallError{Backend: backend, Kind: agents.ErrNotInstalled,
			Msg: fmt.Sprintf("%s not found: install it or put it on PATH", c.Path)}
	case errors.Is(err, ErrDeadline) || errors.Is(err, context.DeadlineExceeded):
		msg := fmt.Sprintf("no answer within %s; the process group was killed", c.Timeout)
		if c.Timeout == 0 {
			msg = "the run's deadline passed; the process group was killed"
		}
		return res, &agents.CallError{Backend: backend, Kind: agents.ErrTimeout, Msg: msg, Exit: res.ExitCode}
	case res.Canceled:
		return res, fmt.Errorf("run %s: %w", backend, err)
	}
	return res, fmt.Errorf("start %s: %w", backend, err)
}

// Fail builds the error of a call that ran but failed: msg is the CLI's own
// message with the secrets of env removed, kind comes from Classify when
// nil is given.
func Fail(backend string, kind error, msg string, exit int, env []string) *agents.CallError {
	msg = redact.New(env).String(strings.TrimSpace(msg))
	if kind == nil {
		kind = Classify(msg)
	}
	if msg == "" {
		msg = "failed without a message"
	}
	return &agents.CallError{Backend: backend, Kind: kind, Msg: msg, Exit: exit}
}

// LastLines returns the last n non-empty lines of b, for error messages
// taken from a CLI's stderr.
func LastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var keep []string
	for i := len(lines) - 1; i >= 0 && len(keep) < n; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			keep = append([]string{l}, keep...)
		}
	}
	return strings.Join(keep, "\n")
}

// Environ returns os.Environ() with extra appended; a later KEY=value wins
// over an earlier one with the same KEY.
func Environ(extra ...string) []string {
	env := append(os.Environ(), extra...)
	seen := make(map[string]int, len(env))
	out := env[:0:0]
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if i, ok := seen[k]; ok {
			out[i] = kv
			continue
		}
		seen[k] = len(out)
		out = append(out, kv)
	}
	return out
}

// Lookup returns the value of key in env, the last one winning.
func Lookup(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// RelFiles turns the paths an agent reported writing into the sorted,
// de-duplicated paths relative to dir that lie inside it (relative
// reported paths are taken from dir). Paths outside dir are left out:
// Result.Files lists the workspace's files.
func RelFiles(dir string, paths []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		if p == "" {
			continue
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") || seen[rel] {
			continue
		}
		seen[rel] = true
		out = append(out, rel)
	}
	slices.Sort(out)
	return out
}

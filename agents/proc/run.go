// Package proc runs agent CLIs as subprocesses for the CLI backends
// (claude, codex, gemini, opencode): each call gets its own process group,
// a deadline that escalates SIGINT, SIGTERM and SIGKILL to the whole group
// (group_unix.go; group_windows.go for what Windows offers instead), and
// capped capture of stdout and stderr. It also holds what those
// backends share around that: running one task (RunTask, with the
// backend's own Parser of its output), classifying a CLI's error message
// into the agents error kinds, with the secrets removed (agents/redact)
// from everything a CLI says that rgit passes on.
package proc

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"time"
)

// Defaults for the zero values of Cmd.
const (
	DefaultGrace     = 3 * time.Second
	DefaultMaxStdout = 32 << 20
	DefaultMaxStderr = 64 << 10
	DefaultMaxLine   = 16 << 20
)

// ErrDeadline reports that Cmd.Timeout expired and the process group was
// killed.
var ErrDeadline = errors.New("deadline exceeded")

// Cmd describes one subprocess call.
type Cmd struct {
	Path  string   // the executable (a path, or a name looked up on PATH)
	Args  []string // arguments, without argv[0]
	Dir   string   // working directory
	Env   []string // the complete environment; nil means os.Environ()
	Stdin io.Reader
	// Timeout bounds the whole call; 0 means only ctx bounds it.
	Timeout time.Duration
	// Grace is the wait between SIGINT, SIGTERM and SIGKILL; 0 means
	// DefaultGrace. SIGINT comes first because the CLIs finish the turn
	// cleanly on it (claude records no result on SIGTERM).
	Grace time.Duration
	// MaxStdout caps the stdout kept in Result.Stdout: the head, or with
	// OnLine set only the tail (DefaultMaxStderr bytes unless given).
	MaxStdout int
	// MaxStderr caps the stderr kept in Result.Stderr (the tail, where
	// error messages are).
	MaxStderr int
	// OnLine, when set, receives every stdout line without its newline, in
	// order, from a single goroutine. The slice is only valid during the
	// call. Lines longer than DefaultMaxLine are dropped.
	OnLine func(line []byte)
}

// Result is what a finished subprocess left behind.
type Result struct {
	Stdout          []byte
	Stderr          []byte
	StdoutTruncated bool
	StderrTruncated bool
	// ExitCode is the exit status, or -1 when a signal ended the process.
	ExitCode int
	TimedOut bool // Cmd.Timeout expired
	Canceled bool // ctx was done first
	Duration time.Duration
}

// Run starts c in a new process group and waits for it. A non-zero exit is
// not an error: the caller reads Result.ExitCode. Run returns an error when
// the process cannot start, ErrDeadline when Cmd.Timeout expired and
// ctx.Err() when ctx ended first; in both of the latter cases the whole
// process group has been killed and Result holds the output so far.
func Run(ctx context.Context, c Cmd) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{Canceled: true, ExitCode: -1}, err
	}
	start := time.Now()
	grace := orDefaultDuration(c.Grace, DefaultGrace)
	outR, outW, err := os.Pipe()
	if err != nil {
		return Result{}, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return Result{}, err
	}
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	cmd.Stdin = c.Stdin
	// Our own pipes (not exec's copying goroutines) so that Wait returns
	// when the leader exits even if a grandchild still holds the pipe.
	cmd.Stdout = outW
	cmd.Stderr = errW
	newGroup(cmd)
	// exec copies a non-file Stdin through its own pipe; should a
	// grandchild keep that pipe open without reading, Wait gives up on the
	// copy after grace instead of hanging.
	cmd.WaitDelay = grace
	if err := cmd.Start(); err != nil {
		for _, f := range []*os.File{outR, outW, errR, errW} {
			f.Close()
		}
		return Result{}, err
	}
	outW.Close()
	errW.Close()
	pgid := cmd.Process.Pid

	// With OnLine the lines are the output; only a tail is kept, for
	// diagnostics, instead of copying everything a second time.
	var stdout capture = &headBuffer{max: orDefault(c.MaxStdout, DefaultMaxStdout)}
	if c.OnLine != nil {
		stdout = &tailBuffer{max: orDefault(c.MaxStdout, DefaultMaxStderr)}
	}
	stderr := &tailBuffer{max: orDefault(c.MaxStderr, DefaultMaxStderr)}
	readers := make(chan struct{}, 2)
	go func() {
		copyLines(outR, stdout, c.OnLine)
		readers <- struct{}{}
	}()
	go func() {
		io.Copy(stderr, errR)
		readers <- struct{}{}
	}()

	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()

	var timer <-chan time.Time
	if c.Timeout > 0 {
		t := time.NewTimer(c.Timeout)
		defer t.Stop()
		timer = t.C
	}
	var res Result
	var runErr error
	select {
	case <-waited:
	case <-timer:
		res.TimedOut, runErr = true, ErrDeadline
		escalate(pgid, waited, grace)
	case <-ctx.Done():
		res.Canceled, runErr = true, ctx.Err()
		escalate(pgid, waited, grace)
	}
	// Whatever the leader left running (background shells, servers) must
	// not outlive the call: it could still write into the workspace after
	// the phase is committed.
	killLeftovers(pgid)
	drain(readers, grace, outR, errR)
	outR.Close()
	errR.Close()

	res.ExitCode = cmd.ProcessState.ExitCode()
	res.Stdout, res.StdoutTruncated = stdout.bytes(), stdout.cut()
	res.Stderr, res.StderrTruncated = stderr.bytes(), stderr.cut()
	res.Duration = time.Since(start)
	return res, runErr
}

func orDefault(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

func orDefaultDuration(v, def time.Duration) time.Duration {
	if v > 0 {
		return v
	}
	return def
}

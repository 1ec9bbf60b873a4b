package agents

import (
	"errors"
	"fmt"
)

// Sentinel errors classify a failed call so the runner knows what to do:
// retry, back off, fall back, or stop the session.
var (
	// ErrTimeout: the call ran past Task.Timeout and was killed.
	ErrTimeout = errors.New("agent timed out")
	// ErrRateLimited: the backend asked us to slow down; retry after a wait.
	ErrRateLimited = errors.New("agent rate limited")
	// ErrQuota: the account's quota is exhausted; stop and tell the user to resume later.
	ErrQuota = errors.New("agent quota exhausted")
	// ErrAuth: login or API key problem; stop at once with a fix.
	ErrAuth = errors.New("agent not authenticated")
	// ErrNotInstalled: the backend's binary or endpoint is missing.
	ErrNotInstalled = errors.New("agent not installed")
	// ErrBadOutput: the agent answered but its output breaks the phase contract.
	ErrBadOutput = errors.New("agent output rejected")
)

// CallError is a failed call with the backend's own message.
type CallError struct {
	Backend string
	Kind    error  // one of the sentinels above, or nil for a plain failure
	Msg     string // the CLI's or server's own words
	Exit    int    // exit status, when a subprocess
}

func (e *CallError) Error() string {
	msg := e.Msg
	if msg == "" && e.Kind != nil {
		msg = e.Kind.Error()
	}
	if e.Exit != 0 {
		return fmt.Sprintf("%s: exit %d: %s", e.Backend, e.Exit, msg)
	}
	return fmt.Sprintf("%s: %s", e.Backend, msg)
}

// Unwrap lets errors.Is match the sentinel kind.
func (e *CallError) Unwrap() error { return e.Kind }

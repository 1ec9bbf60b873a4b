// Package phases is the research state machine: the plan tree, the
// scheduler, the phase runners and their gates, state, lock, budgets, the
// final cycle and the council. It prints nothing: progress goes through the
// Reporter interface that cmd renders.
package phases

import (
	"errors"
	"fmt"
)

var (
	// ErrLocked: another live run holds the session lock.
	ErrLocked = errors.New("session locked")
	// ErrCancelled: the run was interrupted or cancelled; the session is resumable.
	ErrCancelled = errors.New("cancelled")
)

// BadInputError is input the user must fix: a flag, a name, a template, a
// plan or state file. cmd maps it to exit status 2; nothing was written.
type BadInputError struct {
	Msg  string
	Hint string
}

func (e *BadInputError) Error() string { return e.Msg }

// badInput builds a BadInputError.
func badInput(hint, format string, args ...any) error {
	return &BadInputError{Msg: fmt.Sprintf(format, args...), Hint: hint}
}

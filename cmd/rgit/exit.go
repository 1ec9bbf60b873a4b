package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/rgit-dev/rgit/phases"
)

// Exit statuses: the one place errors become codes.
const (
	exitOK        = 0
	exitFailure   = 1
	exitUsage     = 2
	exitLocked    = 3
	exitCancelled = 130
)

// usageError is bad input from the user: exit 2, nothing written.
type usageError struct {
	msg  string
	hint string
}

func (e *usageError) Error() string { return e.msg }

func usagef(hint, format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...), hint: hint}
}

// exitCode maps an error to rgit's exit status. A merge conflict or a
// moved session branch is a failure (1), not bad input: the user's input
// was fine.
func exitCode(err error) int {
	var ue *usageError
	var be *phases.BadInputError
	var se *statusError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &se):
		return se.code
	case errors.As(err, &ue), errors.As(err, &be), isFlagError(err):
		return exitUsage
	case errors.Is(err, phases.ErrLocked):
		return exitLocked
	case errors.Is(err, context.Canceled), errors.Is(err, phases.ErrCancelled):
		return exitCancelled
	default:
		return exitFailure
	}
}

// isFlagError recognises urfave/cli's and the flag package's parse errors,
// which have no exported type.
func isFlagError(err error) bool {
	msg := err.Error()
	for _, s := range []string{"flag provided but not defined", "flag needs an argument", "invalid value", "invalid boolean", "No help topic for", "Required flag"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// hinter is an error that says how to go on.
type hinter interface{ Hint() string }

// hintFor returns the hint printed under an error, if any; each line is
// printed as its own "rgit: hint:" line.
func hintFor(err error) string {
	var ue *usageError
	var be *phases.BadInputError
	var h hinter
	switch {
	case errors.As(err, &ue):
		return ue.hint
	case errors.As(err, &be):
		return be.Hint
	case errors.As(err, &h):
		return h.Hint()
	case errors.Is(err, phases.ErrLocked):
		return "wait for it to finish, stop it with 'rgit cancel', or pass --force-resume if it is dead"
	case isFlagError(err):
		return "run 'rgit help' for the flags each command takes"
	}
	return ""
}

// Package phases is the research state machine: the plan tree, the
// scheduler, the phase runners and their gates, state, lock, budgets and
// the final cycle. It prints nothing: progress goes through the Reporter
// interface that cmd renders.
//
// A run is split so that a newcomer can see where each decision is made:
// the scheduler (loop.go) picks the next step; a step (topicstep.go,
// runner.go) runs one agent call through the failure ladder (ladder.go)
// and returns a result without touching the session; apply functions
// (apply.go, topic.go, final.go) fold a result into State and the plan;
// the committer (committer.go) writes one commit; merge.go merges the
// report. Every path comes from phases/layout, every word written to git
// from vocab.go.
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

// MergeConflictError: the target branch changed the report's path since
// the session started, so the report was not merged. The session itself is
// complete and safe on its branch; the user's input was fine.
type MergeConflictError struct {
	Name   string // the session
	Branch string // the session branch
	Target string // the branch the report was to be merged into
	Path   string // the report's path
}

func (e *MergeConflictError) Error() string {
	return fmt.Sprintf("%s changed %s since the session started; nothing was merged", e.Target, e.Path)
}

// Hint says how to finish the merge.
func (e *MergeConflictError) Hint() string {
	return fmt.Sprintf("merge it yourself with 'git merge %s' on %s, or rerun 'rgit research --name %s --resume' with --merge-into BRANCH or --no-merge",
		e.Branch, e.Target, e.Name)
}

// BranchMovedError: the session branch moved while this run held the lock,
// so another tool wrote to it. Nothing was committed on top; the session
// resumes from the new head.
type BranchMovedError struct {
	Name   string
	Branch string
	Want   string // the head this run last saw ("" = no branch yet)
	Got    string // the head found
}

func (e *BranchMovedError) Error() string {
	return fmt.Sprintf("%s moved from %s to %s while this run held the session; nothing was committed on top of it",
		e.Branch, orNone(e.Want), orNone(e.Got))
}

// Hint says how to go on.
func (e *BranchMovedError) Hint() string {
	return fmt.Sprintf("see what moved it with 'git log %s', then resume with 'rgit research --name %s --resume'", e.Branch, e.Name)
}

func orNone(h string) string {
	if h == "" {
		return "nothing"
	}
	if len(h) > 8 {
		return h[:8]
	}
	return h
}

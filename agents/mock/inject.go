package mock

import (
	"context"
	"fmt"
	"strings"

	"github.com/rgit-dev/rgit/agents"
)

// inject carries out a rule's failure. ctx is the caller's context;
// callCtx adds Task.Timeout, which a hang ignores, since a hung agent is
// the case where only the caller's own deadline or cancel can stop it.
func inject(ctx, callCtx context.Context, r Rule, task agents.Task) (agents.Result, error) {
	switch r.Kind {
	case KindTimeout:
		<-callCtx.Done()
		if err := ctxErr(callCtx); !isTimeout(err) {
			return agents.Result{}, err
		}
		return agents.Result{ExitCode: -1}, &agents.CallError{Backend: "mock", Kind: agents.ErrTimeout,
			Msg: fmt.Sprintf("injected timeout (%s)", r)}
	case KindHang:
		<-ctx.Done()
		return agents.Result{ExitCode: -1}, fmt.Errorf("mock: hung (%s): %w", r, ctx.Err())
	case KindError:
		return agents.Result{ExitCode: 1, Text: "mock: injected error"}, &agents.CallError{Backend: "mock", Exit: 1,
			Msg: fmt.Sprintf("injected error (%s)", r)}
	case KindMissing:
		// Success, an empty final message and no file: the gate must notice.
		return agents.Result{SessionID: sessionID(task), Usage: usage(task, 0, 0)}, nil
	case KindGarbage:
		return garbage(task)
	case KindUnfetched:
		return unfetched(task)
	case KindReject:
		return rejected(task)
	}
	return agents.Result{}, fmt.Errorf("mock: unknown failure kind %q", r.Kind)
}

func isTimeout(err error) bool {
	ce, ok := err.(*agents.CallError)
	return ok && ce.Kind == agents.ErrTimeout
}

// garbage writes, and returns, text that breaks every phase's contract:
// no required section, no plan heading, no JSON verdict.
func garbage(task agents.Task) (agents.Result, error) {
	r := seedFor(task.Brief.Question, task.Brief.Topic, "garbage")
	var b strings.Builder
	b.WriteString("I was unable to complete the task as described.\n\n")
	for i := 0; i < 3+r.intn(4); i++ {
		fmt.Fprintf(&b, "verdict? %x maybe ::: {{%s}} ###\n", r.next(), r.pick(subAspects))
	}
	body := b.String()
	res := agents.Result{Text: body, SessionID: sessionID(task), Usage: usage(task, 0, len(body))}
	if task.Output != "" {
		if err := writeOutput(task.Output, body); err != nil {
			return res, &agents.CallError{Backend: "mock", Exit: 1, Msg: err.Error()}
		}
		res.Files = relFiles(task)
	}
	return res, nil
}

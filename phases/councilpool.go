package phases

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// The members' goroutines: how they run side by side, share the
// reporter, and tell a member's failure from rgit's own.

// maxMembersAtOnce bounds the members' goroutines (each runs one agent
// call at a time).
const maxMembersAtOnce = 8

// inParallel runs fn for every member at once (at most maxMembersAtOnce),
// each with its own Store. A member's failure is kept on the member; only
// cancellation, or a failure of rgit itself, is returned.
func (r *run) inParallel(ctx context.Context, runs []*memberRun, fn func(context.Context, *memberRun) error) error {
	sem := make(chan struct{}, maxMembersAtOnce)
	errs := make([]error, len(runs))
	var wg sync.WaitGroup
	for i, mr := range runs {
		mr.failed = nil
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			store, err := r.deps.OpenStore(r.lay.Root())
			if err != nil {
				errs[i] = fmt.Errorf("open repository for %s: %w", mr.m.Name, err)
				return
			}
			defer store.Close()
			mr.commits.store = store
			err = fn(ctx, mr)
			mr.commits.store = nil
			switch {
			case err == nil:
			case ctx.Err() != nil:
				errs[i] = ctx.Err()
			case memberFault(err):
				mr.failed = err
				mr.progress(EventWarning, "", fmt.Sprintf("%s failed and is left out: %s", mr.m.Name, oneLine(Redact(err.Error()))))
			default:
				errs[i] = err
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// memberFault says whether err is the member's agent failing (it is left
// out) rather than rgit or the repository failing (the run stops).
func memberFault(err error) bool {
	var moved *BranchMovedError
	if errors.As(err, &moved) {
		return false
	}
	return errors.Is(err, errExhausted) || fatal(err)
}

// lockedReporter lets the members' goroutines share one Reporter, which
// serves one goroutine at a time.
type lockedReporter struct {
	mu  sync.Mutex
	rep Reporter
}

func (l *lockedReporter) Report(e Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.rep.Report(e)
}

// quietStarts drops the ladder's own start events of member calls: the
// member already reported the step in the seed's words.
type quietStarts struct{ rep Reporter }

func (q quietStarts) Report(e Event) {
	if e.Kind == EventPhaseStart && e.Message == "" {
		return
	}
	q.rep.Report(e)
}

package phases

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/rgit-dev/rgit/agents/registry/catalog"
)

// The members' goroutines: how they run side by side under --jobs, share
// the reporter, and tell a member's failure from rgit's own.

// councilJobs is how many members may have a call in flight at once (each
// member runs one call at a time): --jobs when given, else every member,
// at most the smallest default of their backends (catalog.DefaultJobs),
// and one when a backend cannot run calls at once. The mock's plain
// default of one (a reproducible commit order) does not apply: each
// member commits to its own branch, so any order gives the same history.
func (r *run) councilJobs(members int) int {
	if r.state.Jobs > 0 {
		return max(1, min(r.state.Jobs, members))
	}
	n := members
	for _, m := range r.state.Council.Members {
		name := backendOf(m.Spec)
		b, ok := catalog.Lookup(name)
		switch {
		case ok && !b.Concurrent:
			return 1
		case ok && name != "mock":
			n = min(n, b.DefaultJobs())
		}
	}
	return max(1, n)
}

// inParallel runs fn for every member, at most councilJobs at once, each
// with its own Store. Members start in council order as slots free up. A
// member's failure is kept on the member; only cancellation, or a failure
// of rgit itself, is returned. Every goroutine started here has ended when
// it returns.
func (r *run) inParallel(ctx context.Context, runs []*memberRun, fn func(context.Context, *memberRun) error) error {
	slots := make(chan struct{}, r.councilJobs(len(runs)))
	errs := make([]error, len(runs))
	var wg sync.WaitGroup
	for i, mr := range runs {
		slots <- struct{}{}
		mr.failed = nil
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			errs[i] = r.runMember(ctx, mr, fn)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// runMember runs fn for one member on its own Store.
func (r *run) runMember(ctx context.Context, mr *memberRun, fn func(context.Context, *memberRun) error) error {
	store, err := r.deps.OpenStore(r.lay.Root())
	if err != nil {
		return fmt.Errorf("open repository for %s: %w", mr.m.Name, err)
	}
	defer store.Close()
	mr.commits.store = store
	err = fn(ctx, mr)
	mr.commits.store = nil
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return ctx.Err()
	case memberFault(err):
		mr.failed = err
		mr.progress(EventWarning, "", fmt.Sprintf("%s failed and is left out: %s", mr.m.Name, oneLine(Redact(err.Error()))))
	default:
		return err
	}
	return nil
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

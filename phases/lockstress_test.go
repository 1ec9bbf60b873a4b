package phases

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/phases/layout"
)

// holdAgent holds its first call until released, then stops the run
// with an auth error: the run that got the lock stays inside it while
// the others try, and ends right after.
type holdAgent struct {
	calls   atomic.Int32
	entered chan struct{} // closed by the first call
	release chan struct{}
}

func (h *holdAgent) Name() string { return "hold" }

func (h *holdAgent) Run(ctx context.Context, task agents.Task) (agents.Result, error) {
	if h.calls.Add(1) == 1 {
		close(h.entered)
	}
	select {
	case <-h.release:
	case <-ctx.Done():
		return agents.Result{}, ctx.Err()
	}
	return agents.Result{}, &agents.CallError{Backend: "hold", Kind: agents.ErrAuth, Msg: "stop here"}
}

// TestLockStress starts one session from 8 goroutines at once, 200 times
// (issue 12 point 3; run it under -race). Each time exactly one run gets
// the lock and calls its agent; the other seven are LockedErrors naming a
// real pid and host, and the branch holds one start commit, never two.
func TestLockStress(t *testing.T) {
	const starts = 8
	trials := 200
	if testing.Short() {
		trials = 20
	}
	dir := testRepo(t)
	host, _ := os.Hostname()
	for i := range trials {
		name := fmt.Sprintf("s%03d", i)
		h := &holdAgent{entered: make(chan struct{}), release: make(chan struct{})}
		deps := Deps{NewAgent: func(string) (agents.Agent, error) { return h, nil }} // system clock: tokens differ
		errs := make(chan error, starts)
		for range starts {
			go func() {
				_, err := Research(context.Background(), Config{Dir: dir, Topic: "Why?", Name: name, Breadth: 1, Depth: 0, Model: "hold", ReviewModel: "hold"}, deps)
				errs <- err
			}()
		}
		var locked []*LockedError
		for len(locked) < starts-1 {
			select {
			case err := <-errs:
				var le *LockedError
				if !errors.As(err, &le) || !errors.Is(err, ErrLocked) {
					t.Fatalf("trial %d: a start that did not get the lock ended with %v", i, err)
				}
				locked = append(locked, le)
			case <-time.After(time.Minute):
				t.Fatalf("trial %d: %d of %d starts ended", i, len(locked), starts-1)
			}
		}
		<-h.entered // the one run is in its agent
		close(h.release)
		if err := <-errs; !errors.Is(err, agents.ErrAuth) {
			t.Fatalf("trial %d: the run holding the lock ended with %v", i, err)
		}
		if n := h.calls.Load(); n != 1 {
			t.Fatalf("trial %d: %d agent calls; exactly one run may call its agent", i, n)
		}
		for _, le := range locked {
			if le.Info.PID != os.Getpid() || le.Info.Host != host || le.Info.Token == "" || !strings.Contains(le.Error(), fmt.Sprintf("pid %d on %s", os.Getpid(), host)) {
				t.Fatalf("trial %d: LockedError names %+v: %v", i, le.Info, le)
			}
		}
		if n := gitIn(t, dir, "rev-list", "--count", "main..research/"+name); n != "1" {
			t.Fatalf("trial %d: research/%s has %s commits above main, want the one start commit", i, name, n)
		}
	}
	t.Logf("%d trials of %d concurrent starts: one run each", trials, starts)
}

// takeOver does what `rgit research --force-resume` does to a running
// session's lock, from another run.
func takeOver(t *testing.T, root, name string) *lock {
	t.Helper()
	l, err := acquireLock(lockStore(t, root), layout.New(root, name), true, SystemClock, func(string) {}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// A run whose lock was taken over with --force-resume while its agent
// worked cannot commit that work: its commit is fenced under the store
// lock, it ends with a LockLostError (exit 3), and the branch stays where
// the new owner found it.
func TestFencedCommit(t *testing.T) {
	dir := testRepo(t)
	var before string
	var l *lock
	a := &scripted{name: "fake", failing: func(task agents.Task) error {
		if task.Phase == agents.PhaseResearch && l == nil {
			before = gitIn(t, dir, "rev-parse", "research/why")
			l = takeOver(t, dir, "why")
		}
		return nil
	}}
	_, _, err := runWith(t, dir, Config{Topic: "Why?", Breadth: 1, Depth: 0, Model: "fake", ReviewModel: "fake"}, map[string]agents.Agent{"fake": a})
	var lost *LockLostError
	if !errors.As(err, &lost) || !errors.Is(err, ErrLocked) || lost.By.Token != l.info.Token {
		t.Fatalf("err = %v, want a LockLostError naming the new owner", err)
	}
	if after := gitIn(t, dir, "rev-parse", "research/why"); after != before {
		t.Errorf("the displaced run committed: %s -> %s", before, after)
	}
	if info, ok, _ := ReadLock(layout.New(dir, "why")); !ok || !l.owns(info) {
		t.Errorf("the displaced run removed the new owner's lock: %+v %v", info, ok)
	}
	l.release()
}

// A run whose lock is taken over while its agent is still working learns
// it from its lock refresh and stops the agent, without waiting for the
// agent to finish.
func TestTakeOverStopsAgent(t *testing.T) {
	defer func(d time.Duration) { refreshEvery = d }(refreshEvery)
	refreshEvery = 5 * time.Millisecond
	dir := testRepo(t)
	h := &holdAgent{entered: make(chan struct{}), release: make(chan struct{})}
	done := make(chan error, 1)
	go func() {
		_, err := Research(context.Background(), Config{Dir: dir, Topic: "Why?", Breadth: 1, Depth: 0, Model: "hold", ReviewModel: "hold"},
			Deps{NewAgent: func(string) (agents.Agent, error) { return h, nil }})
		done <- err
	}()
	<-h.entered
	l := takeOver(t, dir, "why")
	defer l.release()
	select {
	case err := <-done:
		var lost *LockLostError
		if !errors.As(err, &lost) || lost.By.Token != l.info.Token {
			t.Fatalf("err = %v, want a LockLostError", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the displaced run's agent was not stopped")
	}
}

package phases

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/mock"
)

// overlap counts a council's calls in flight. Until as many as want have
// been in flight together it holds each call (at most a deadline, so a
// council that never gets there fails the test instead of hanging).
type overlap struct {
	agents.Agent
	want    int
	mu      sync.Mutex
	in      int
	most    int
	reached chan struct{}
}

func (o *overlap) Run(ctx context.Context, t agents.Task) (agents.Result, error) {
	o.mu.Lock()
	o.in++
	if o.in > o.most {
		o.most = o.in
		if o.most == o.want {
			close(o.reached)
		}
	}
	o.mu.Unlock()
	defer func() { o.mu.Lock(); o.in--; o.mu.Unlock() }()
	select {
	case <-o.reached:
	case <-time.After(20 * time.Second):
	case <-ctx.Done():
		return agents.Result{}, ctx.Err()
	}
	return o.Agent.Run(ctx, t)
}

// --jobs bounds the members with a call in flight; without it every member
// of a mock council runs at once.
func TestCouncilJobs(t *testing.T) {
	for _, tc := range []struct{ jobs, want int }{{0, 3}, {1, 1}, {2, 2}, {5, 3}} {
		t.Run(fmt.Sprintf("jobs %d", tc.jobs), func(t *testing.T) {
			dir := testRepo(t)
			o := &overlap{Agent: mock.New(mock.Options{}), want: tc.want, reached: make(chan struct{})}
			deps := Deps{NewAgent: func(string) (agents.Agent, error) { return o, nil }, Clock: FixedClock(testNow)}
			cfg := councilCfg(dir, "mock:alpha", "mock:beta", "mock:gamma")
			cfg.Jobs = tc.jobs
			sum, err := Research(context.Background(), cfg, deps)
			if err != nil || !sum.Finished {
				t.Fatalf("%v %+v", err, sum)
			}
			if o.most != tc.want {
				t.Errorf("at most %d calls ran at once, want %d", o.most, tc.want)
			}
		})
	}
}

// rateLimitOnce fails its first call with a rate limit asking for a wait.
type rateLimitOnce struct {
	agents.Agent
	once sync.Once
}

func (r *rateLimitOnce) Run(ctx context.Context, t agents.Task) (agents.Result, error) {
	limited := false
	r.once.Do(func() { limited = true })
	if limited {
		return agents.Result{}, fmt.Errorf("%w: too many requests, retry in 4m", agents.ErrRateLimited)
	}
	return r.Agent.Run(ctx, t)
}

// A rate limit one member hits holds back the other members' calls to the
// same backend (one Hold per backend, as cmd/rgit builds the agents), the
// same as for parallel topics; the council still completes.
func TestCouncilSharedRateLimit(t *testing.T) {
	dir := testRepo(t)
	var mu sync.Mutex
	waits := map[string][]time.Duration{}
	hold := &agents.Hold{}
	base := mock.New(mock.Options{})
	newAgent := func(spec string) (agents.Agent, error) {
		var a agents.Agent = base
		if spec == "mock:alpha" {
			a = &rateLimitOnce{Agent: base}
		}
		return agents.WithBackoff(a, agents.BackoffPolicy{Hold: hold, Sleep: func(_ context.Context, d time.Duration) error {
			mu.Lock()
			defer mu.Unlock()
			waits[spec] = append(waits[spec], d)
			return nil
		}}, nil), nil
	}
	sum, err := Research(context.Background(), councilCfg(dir, "mock:alpha", "mock:beta", "mock:gamma"),
		Deps{NewAgent: newAgent, Clock: FixedClock(testNow)})
	if err != nil || !sum.Finished {
		t.Fatalf("%v %+v", err, sum)
	}
	if w := waits["mock:alpha"]; len(w) == 0 || w[0] != 4*time.Minute {
		t.Errorf("alpha waited %v, want 4m first (the rate limit's hint)", w)
	}
	for _, spec := range []string{"mock:beta", "mock:gamma"} {
		w := waits[spec]
		if len(w) == 0 || w[0] <= 0 || w[0] > 4*time.Minute {
			t.Errorf("%s waited %v, want the rest of alpha's rate-limit hold", spec, w)
		}
	}
}

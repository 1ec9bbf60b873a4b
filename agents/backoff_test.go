package agents

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

// scripted fails with the given errors in turn, then succeeds.
type scripted struct {
	errs  []error
	calls int
}

func (s *scripted) Name() string { return "scripted" }

func (s *scripted) Run(ctx context.Context, t Task) (Result, error) {
	s.calls++
	if s.calls <= len(s.errs) {
		return Result{ExitCode: 1}, s.errs[s.calls-1]
	}
	return Result{Text: "done"}, nil
}

func rateLimited(msg string) error {
	return &CallError{Backend: "scripted", Kind: ErrRateLimited, Msg: msg}
}

func TestWithBackoff(t *testing.T) {
	quota := &CallError{Backend: "scripted", Kind: ErrQuota, Msg: "Quota exceeded."}
	auth := &CallError{Backend: "scripted", Kind: ErrAuth, Msg: "Not logged in"}
	plain := errors.New("boom")
	tests := []struct {
		name      string
		policy    BackoffPolicy
		errs      []error
		wantWaits []time.Duration
		wantCalls int
		wantErr   error
	}{
		{"success first", BackoffPolicy{}, nil, nil, 1, nil},
		{"doubling", BackoffPolicy{}, []error{rateLimited("429"), rateLimited("429"), rateLimited("429")},
			[]time.Duration{10 * time.Second, 20 * time.Second, 40 * time.Second}, 4, nil},
		{"capped", BackoffPolicy{Initial: time.Minute, Max: 90 * time.Second, Factor: 3},
			[]error{rateLimited("x"), rateLimited("x")}, []time.Duration{time.Minute, 90 * time.Second}, 3, nil},
		{"hint raises the wait", BackoffPolicy{Initial: time.Second},
			[]error{rateLimited("Quota exceeded for metric. Please retry in 20.5s.")},
			[]time.Duration{20500 * time.Millisecond}, 2, nil},
		{"hint capped", BackoffPolicy{Initial: time.Second, Max: 5 * time.Second},
			[]error{rateLimited("try again in 2 minutes")}, []time.Duration{5 * time.Second}, 2, nil},
		{"exhausted", BackoffPolicy{Retries: 2},
			[]error{rateLimited("429"), rateLimited("429"), rateLimited("429 last")},
			[]time.Duration{10 * time.Second, 20 * time.Second}, 3, ErrRateLimited},
		{"no retries", BackoffPolicy{Retries: -1}, []error{rateLimited("429")}, nil, 1, ErrRateLimited},
		{"quota passes", BackoffPolicy{}, []error{quota}, nil, 1, ErrQuota},
		{"auth passes", BackoffPolicy{}, []error{auth}, nil, 1, ErrAuth},
		{"plain passes", BackoffPolicy{}, []error{plain}, nil, 1, plain},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var slept, notified []time.Duration
			tt.policy.Sleep = func(ctx context.Context, d time.Duration) error {
				slept = append(slept, d)
				return nil
			}
			s := &scripted{errs: tt.errs}
			a := WithBackoff(s, tt.policy, func(d time.Duration, err error) {
				if !errors.Is(err, ErrRateLimited) {
					t.Errorf("notified of %v", err)
				}
				notified = append(notified, d)
			})
			res, err := a.Run(context.Background(), Task{})
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err == nil && res.Text != "done" {
				t.Errorf("result %+v", res)
			}
			if s.calls != tt.wantCalls || !slices.Equal(slept, tt.wantWaits) || !slices.Equal(notified, tt.wantWaits) {
				t.Errorf("calls %d waits %v notified %v, want %d %v", s.calls, slept, notified, tt.wantCalls, tt.wantWaits)
			}
			if a.Name() != "scripted" {
				t.Errorf("name %q", a.Name())
			}
		})
	}
}

func TestWithBackoffHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := &scripted{errs: []error{rateLimited("429")}}
	// The real timer: a done ctx must end the wait at once.
	_, err := WithBackoff(s, BackoffPolicy{Initial: time.Hour}, nil).Run(ctx, Task{})
	if !errors.Is(err, context.Canceled) || s.calls != 1 {
		t.Errorf("err = %v after %d calls, want context.Canceled after 1", err, s.calls)
	}
}

// A rate limit one call meets holds back the next call of every agent
// sharing the Hold, with the wait the backend asked for.
func TestBackoffSharedHold(t *testing.T) {
	now := time.Unix(1000, 0)
	hold := &Hold{now: func() time.Time { return now }}
	var waitsA, waitsB []time.Duration
	policy := func(waits *[]time.Duration) BackoffPolicy {
		return BackoffPolicy{Initial: time.Second, Hold: hold, Sleep: func(_ context.Context, d time.Duration) error {
			*waits = append(*waits, d)
			return nil
		}}
	}
	a := WithBackoff(&scripted{errs: []error{rateLimited("429: retry after 30 seconds")}}, policy(&waitsA), nil)
	b := WithBackoff(&scripted{}, policy(&waitsB), nil)
	if _, err := b.Run(context.Background(), Task{}); err != nil || len(waitsB) != 0 {
		t.Fatalf("before any limit: err %v, waits %v", err, waitsB)
	}
	if _, err := a.Run(context.Background(), Task{}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Run(context.Background(), Task{}); err != nil {
		t.Fatal(err)
	}
	if want := []time.Duration{30 * time.Second}; !slices.Equal(waitsB, want) {
		t.Errorf("the other agent waited %v, want %v", waitsB, want)
	}
	now = now.Add(31 * time.Second)
	waitsB = nil
	if _, err := b.Run(context.Background(), Task{}); err != nil || len(waitsB) != 0 {
		t.Errorf("after the hold: err %v, waits %v", err, waitsB)
	}
}

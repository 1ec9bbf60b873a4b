package agents

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"sync"
	"time"
)

// BackoffPolicy bounds the waits and retries of a rate-limited agent. The
// zero value gives 5 retries waiting 10s, 20s, 40s, 80s and 160s.
type BackoffPolicy struct {
	Initial time.Duration // the first wait; 0 means 10s
	Max     time.Duration // the cap of one wait; 0 means 5m
	Factor  float64       // growth per retry; 0 means 2
	Retries int           // retries after the first call; 0 means 5, <0 none
	// Sleep waits d or until ctx is done; nil uses a timer. Tests inject
	// one that records the waits instead of sleeping.
	Sleep func(ctx context.Context, d time.Duration) error
	// Hold, when set, is shared by every agent of one backend: a wait one
	// call is told to make holds back the others' next calls too, since a
	// rate limit is the backend's, not the call's (rgit --jobs).
	Hold *Hold
}

// Hold is a pause shared by the calls to one backend. Its zero value
// holds nothing; it is safe for concurrent use.
type Hold struct {
	mu    sync.Mutex
	until time.Time
	now   func() time.Time // nil is time.Now; tests fix it
}

// extend makes every call wait until at least d from now.
func (h *Hold) extend(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if u := h.clock()().Add(d); u.After(h.until) {
		h.until = u
	}
}

// left is how long calls must still wait.
func (h *Hold) left() time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.until.Sub(h.clock()())
}

func (h *Hold) clock() func() time.Time {
	if h.now == nil {
		return time.Now
	}
	return h.now
}

func (p BackoffPolicy) withDefaults() BackoffPolicy {
	if p.Initial <= 0 {
		p.Initial = 10 * time.Second
	}
	if p.Max <= 0 {
		p.Max = 5 * time.Minute
	}
	if p.Factor < 1 {
		p.Factor = 2
	}
	if p.Retries == 0 {
		p.Retries = 5
	}
	if p.Sleep == nil {
		p.Sleep = sleep
	}
	return p
}

// WithBackoff wraps a so that a call failing with ErrRateLimited is
// retried after a growing wait: Initial, then times Factor, each capped by
// Max and raised to the wait the backend's message asks for ("retry in
// 20.5s"). notify, when not nil, hears of every wait before it starts, so
// the caller can show it. Every other error, ErrQuota and ErrAuth
// included, returns at once, as does the rate-limit error once the
// retries are spent, and ctx's error when ctx ends during a wait.
func WithBackoff(a Agent, p BackoffPolicy, notify func(wait time.Duration, err error)) Agent {
	return &backoff{Agent: a, p: p.withDefaults(), notify: notify}
}

type backoff struct {
	Agent
	p      BackoffPolicy
	notify func(time.Duration, error)
}

func (b *backoff) Run(ctx context.Context, t Task) (Result, error) {
	wait := b.p.Initial
	for retry := 0; ; retry++ {
		if h := b.p.Hold; h != nil && retry == 0 { // a retry has just waited
			if d := h.left(); d > 0 {
				if serr := b.p.Sleep(ctx, d); serr != nil {
					return Result{}, serr
				}
			}
		}
		res, err := b.Agent.Run(ctx, t)
		if err == nil || !errors.Is(err, ErrRateLimited) || retry >= b.p.Retries {
			return res, err
		}
		d := min(max(wait, hinted(err)), b.p.Max)
		if b.notify != nil {
			b.notify(d, err)
		}
		if b.p.Hold != nil {
			b.p.Hold.extend(d)
		}
		if serr := b.p.Sleep(ctx, d); serr != nil {
			return res, serr
		}
		wait = time.Duration(float64(wait) * b.p.Factor)
	}
}

// retryHint finds the wait a message asks for: "Please retry in 20.5s",
// "try again in 2s", "retry after 30 seconds".
var retryHint = regexp.MustCompile(`(?i)(?:retry|try again)\s+(?:in|after)\s+([0-9]+(?:\.[0-9]+)?)\s*(ms|s|sec|secs|seconds?|m|min|minutes?)?\b`)

func hinted(err error) time.Duration {
	m := retryHint.FindStringSubmatch(err.Error())
	if m == nil {
		return 0
	}
	v, perr := strconv.ParseFloat(m[1], 64)
	if perr != nil {
		return 0
	}
	unit := time.Second
	switch m[2] {
	case "ms":
		unit = time.Millisecond
	case "m", "min", "minute", "minutes":
		unit = time.Minute
	}
	return time.Duration(v * float64(unit))
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

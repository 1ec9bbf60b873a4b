package phases

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestTwoTierLadder walks the two-tier ladder: tier 1 fix attempts, tier 2
// topic restarts (each resetting the attempt counter), only then the next
// agent, then exhausted.
func TestTwoTierLadder(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name         string
		chain        []string
		fixes        int
		restartsLeft int
		want         []string // "agent attempt -> move" per failure
	}{
		{"one fix, one restart, fallback", []string{"a", "b"}, 1, 1, []string{
			"a0->retry", "a1->restart", "a0->retry", "a1->fallback", "b0->retry", "b1->exhausted"}},
		{"no fixes, two restarts", []string{"a"}, -1, 2, []string{"a0->restart", "a0->restart", "a0->exhausted"}},
		{"restarts spent earlier: straight to the fallback", []string{"a", "b"}, 2, 0, []string{
			"a0->retry", "a1->retry", "a2->fallback", "b0->retry", "b1->retry", "b2->exhausted"}},
		{"no fixes at all", []string{"a", "b"}, -1, 0, []string{"a0->fallback", "b0->exhausted"}},
		{"default fixes when unset", []string{"a"}, 0, 0, []string{"a0->retry", "a1->retry", "a2->retry", "a3->exhausted"}},
	}
	names := map[move]string{moveRetry: "retry", moveRestart: "restart", moveFallback: "fallback", moveExhausted: "exhausted", moveSwitch: "switch", moveStop: "stop"}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := newLadder(tc.chain, nil).tiers(tc.fixes, tc.restartsLeft)
			var got []string
			for range len(tc.want) {
				spec, n := l.spec()
				got = append(got, fmt.Sprintf("%s%d->%s", spec, n, names[l.failed(boom)]))
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ladder\n got %v\nwant %v", got, tc.want)
			}
		})
	}
}

// TestRetryTracking checks every move of the ladder is one event, one line
// for the commit body and one count in retry_tracking.
func TestRetryTracking(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := call{phase: PhaseReview, topic: "Tides"}
	var res callResult
	for i, mv := range []move{moveRetry, moveRestart, moveFallback, moveExhausted} {
		res.track(mv, c, "mock", i, "exit status 1", at)
	}
	var s State
	s.init()
	s.trackRetries(res.retries)
	s.trackRetries(res.retries[3:]) // a topic is listed once however often it is exhausted
	if s.RetryTracking.TotalFailed != 5 || !reflect.DeepEqual(s.RetryTracking.ExhaustedSubquestions, []string{"Tides"}) {
		t.Errorf("retry_tracking = %+v", s.RetryTracking)
	}
	kinds := []string{}
	for _, e := range s.RetryTracking.Events[:4] {
		kinds = append(kinds, e.Kind)
		if e.Phase != PhaseReview || e.Topic != "Tides" || e.At != unixSeconds(at) || e.Reason != "exit status 1" {
			t.Errorf("event %+v", e)
		}
	}
	if !reflect.DeepEqual(kinds, []string{"retry", "restart", "fallback", "exhausted"}) {
		t.Errorf("kinds %v", kinds)
	}
	body := strings.Join(res.events, "\n")
	for _, want := range []string{`Retry: review of "Tides" attempt 1 on mock failed: exit status 1; retrying`,
		`Restart: review of "Tides" attempt 2 on mock failed`, `Fallback: review of "Tides" attempt 3`, `Exhausted: review of "Tides" attempt 4`} {
		if !strings.Contains(body, want) {
			t.Errorf("commit body lacks %q:\n%s", want, body)
		}
	}
}

// TestRetryLimits checks the limits a new and a resumed session get.
func TestRetryLimits(t *testing.T) {
	tests := []struct {
		name  string
		prior *RetryLimits
		cfg   Config
		want  RetryLimits
	}{
		{"defaults", nil, Config{}, RetryLimits{MaxFixAttempts: 3, MaxTopicRestarts: 1}},
		{"asked", nil, Config{MaxFixAttempts: 5, MaxTopicRestarts: 2}, RetryLimits{MaxFixAttempts: 5, MaxTopicRestarts: 2}},
		{"none", nil, Config{MaxFixAttempts: -1, MaxTopicRestarts: -1}, RetryLimits{}},
	}
	for _, tc := range tests {
		if got := *newRetryLimits(tc.cfg); got != tc.want {
			t.Errorf("%s: newRetryLimits = %+v, want %+v", tc.name, got, tc.want)
		}
	}
	old := Settings{} // a session from before the limits: three fixes, no restart
	if got := *resumeRetryLimits(old, Config{}); got != (RetryLimits{MaxFixAttempts: 3}) {
		t.Errorf("resume of an old session = %+v", got)
	}
	if got := *resumeRetryLimits(Settings{RetryLimits: &RetryLimits{MaxFixAttempts: 2, MaxTopicRestarts: 1}}, Config{MaxTopicRestarts: 3}); got != (RetryLimits{MaxFixAttempts: 2, MaxTopicRestarts: 3}) {
		t.Errorf("resume raising restarts = %+v", got)
	}
}

package phases

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/rgit-dev/rgit/agents"
)

func TestLadder(t *testing.T) {
	boom := &agents.CallError{Backend: "a", Msg: "boom", Exit: 1}
	timeout := &agents.CallError{Backend: "a", Kind: agents.ErrTimeout}
	auth := &agents.CallError{Backend: "a", Kind: agents.ErrAuth}
	type step struct {
		err  error
		want move
		next string // the agent called after this move ("" when the ladder is done)
	}
	tests := []struct {
		name     string
		chain    []string
		timeouts map[string]int
		steps    []step
	}{
		{"retries then exhausted on a single agent", []string{"a"}, nil, []step{
			{boom, moveRetry, "a"}, {boom, moveRetry, "a"}, {boom, moveRetry, "a"}, {boom, moveExhausted, ""},
		}},
		{"fallback after four attempts, then exhausted", []string{"a", "b"}, nil, []step{
			{boom, moveRetry, "a"}, {boom, moveRetry, "a"}, {boom, moveRetry, "a"}, {boom, moveFallback, "b"},
			{boom, moveRetry, "b"}, {boom, moveRetry, "b"}, {boom, moveRetry, "b"}, {boom, moveExhausted, ""},
		}},
		{"two timeouts switch at once", []string{"a", "b"}, nil, []step{
			{timeout, moveRetry, "a"}, {timeout, moveSwitch, "b"},
		}},
		{"timeouts count over the session", []string{"a", "b"}, map[string]int{"a": 1}, []step{
			{timeout, moveSwitch, "b"},
		}},
		{"timeouts on the last agent are retried", []string{"a"}, map[string]int{"a": 5}, []step{
			{timeout, moveRetry, "a"}, {timeout, moveRetry, "a"}, {timeout, moveRetry, "a"}, {timeout, moveExhausted, ""},
		}},
		{"auth stops at once", []string{"a", "b"}, nil, []step{{auth, moveStop, "a"}}},
		{"cancellation stops", []string{"a"}, nil, []step{{fmt.Errorf("run: %w", context.Canceled), moveStop, "a"}}},
		{"quota stops after a retry", []string{"a"}, nil, []step{
			{boom, moveRetry, "a"}, {&agents.CallError{Kind: agents.ErrQuota}, moveStop, "a"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := fmt.Sprint(tc.timeouts)
			l := newLadder(tc.chain, tc.timeouts)
			for i, s := range tc.steps {
				if got := l.failed(s.err); got != s.want {
					t.Fatalf("step %d: move %d, want %d", i, got, s.want)
				}
				if s.next != "" {
					if spec, _ := l.spec(); spec != s.next {
						t.Fatalf("step %d: next agent %q, want %q", i, spec, s.next)
					}
				}
			}
			if fmt.Sprint(tc.timeouts) != before {
				t.Errorf("the ladder changed the session's timeouts: %v, was %v", tc.timeouts, before)
			}
		})
	}
}

// The ladder's attempt numbers and recovering flag drive the recovery
// prompt: attempt 0 on every new agent, recovering after any failure.
func TestLadderAttempts(t *testing.T) {
	l := newLadder([]string{"a", "b"}, nil)
	var got []string
	for range 6 {
		spec, n := l.spec()
		got = append(got, fmt.Sprintf("%s%d:%v", spec, n, l.recovering()))
		l.failed(errors.New("x"))
	}
	want := []string{"a0:false", "a1:true", "a2:true", "a3:true", "b0:true", "b1:true"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("attempts %v, want %v", got, want)
	}
}

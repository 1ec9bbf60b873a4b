package mock

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

// TestDelay checks the per-call delay honours ctx and Task.Timeout.
func TestDelay(t *testing.T) {
	tests := []struct {
		name    string
		delay   time.Duration
		timeout time.Duration
		cancel  bool
		want    error // nil: success
	}{
		{"short delay succeeds", time.Millisecond, 0, false, nil},
		{"cancel ends delay", time.Hour, 0, true, context.Canceled},
		{"task timeout ends delay", time.Hour, time.Millisecond, false, agents.ErrTimeout},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			task := phaseTask(t, agents.PhaseResearch)
			task.Timeout = tc.timeout
			ctx, cancel := context.WithCancel(context.Background())
			if tc.cancel {
				cancel()
			}
			defer cancel()
			res, err := New(Options{Delay: tc.delay}).Run(ctx, task)
			if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
				t.Fatalf("Run error = %v, want %v", err, tc.want)
			}
			_, statErr := os.Stat(task.Output)
			if (tc.want == nil) != (statErr == nil) {
				t.Errorf("output exists = %v, want %v", statErr == nil, tc.want == nil)
			}
			if tc.want == nil && res.Usage.Duration < tc.delay {
				t.Errorf("Usage.Duration %v is below the delay %v", res.Usage.Duration, tc.delay)
			}
		})
	}
}

// TestCallerDeadline checks a timeout rule ends at the caller's deadline
// when the task sets none.
func TestCallerDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	a := New(Options{Fail: []Rule{{Kind: KindTimeout, Phase: AnyPhase}}})
	if _, err := a.Run(ctx, phaseTask(t, agents.PhasePlan)); !errors.Is(err, agents.ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
}

// TestBadTask checks tasks the mock cannot carry out are refused.
func TestBadTask(t *testing.T) {
	tests := []struct {
		name string
		edit func(*agents.Task)
	}{
		{"relative output", func(t *agents.Task) { t.Output = "out.md" }},
		{"no output", func(t *agents.Task) { t.Output = "" }},
		{"unknown phase", func(t *agents.Task) { t.Phase = "compile" }},
		{"revise without report", func(t *agents.Task) { t.Phase = agents.PhaseRevise }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			task := phaseTask(t, agents.PhaseResearch)
			tc.edit(&task)
			var ce *agents.CallError
			if _, err := New(Options{}).Run(context.Background(), task); !errors.As(err, &ce) || ce.Exit == 0 {
				t.Fatalf("Run error = %v, want a CallError with an exit status", err)
			}
		})
	}
}

// TestReviewWithoutOutput checks a verdict is still returned as the final
// message when the task names no file, as the contract allows.
func TestReviewWithoutOutput(t *testing.T) {
	task := phaseTask(t, agents.PhaseReview)
	task.Output = ""
	res, err := New(Options{}).Run(context.Background(), task)
	if err != nil {
		t.Fatal(err)
	}
	var v verdict
	if err := json.Unmarshal([]byte(res.Text), &v); err != nil || len(res.Files) != 0 {
		t.Fatalf("Text %q, Files %v: %v", res.Text, res.Files, err)
	}
}

// TestReviewRejectsBrokenFile checks the reviewers reject files that
// break the contract whatever the seed says.
func TestReviewRejectsBrokenFile(t *testing.T) {
	for _, phase := range []agents.Phase{agents.PhaseReview, agents.PhaseFinalReview} {
		for _, content := range []string{"", "garbage\n", "## Findings\n- x\n"} {
			task := phaseTask(t, phase)
			task.Brief.ReviewPath = filepath.Join(task.Dir, "under-review.md")
			if content != "" {
				if err := os.MkdirAll(task.Dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(task.Brief.ReviewPath, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := New(Options{}).Run(context.Background(), task)
			if err != nil {
				t.Fatal(err)
			}
			v := checkVerdict(t, res.Text, readFile(t, task.Output))
			if v.Verdict != "reject" {
				t.Errorf("%s of %q: verdict %+v, want reject", phase, content, v)
			}
		}
	}
}

// Package mock is the deterministic agent behind --mock-mode and the
// tests: it honours the phase contract of package agents with realistic
// files, and fails in named ways on request.
//
// Every choice it makes comes from a hash of the session's question and
// the topic (never the clock or a random source), so a session run twice,
// or killed and resumed, produces byte-identical files. Only
// Usage.Duration measures real time.
package mock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

// Options configure a mock agent.
type Options struct {
	Fail  []Rule        // injected failures; the first rule that fires wins
	Delay time.Duration // sleep per call (honouring ctx), so kill tests can land mid-phase
	// PerProcess makes a rule fail the first Times matching calls made
	// through this Agent, instead of the attempts below Times; see Rule.
	PerProcess bool
	// PromptLog, if set, is a file each call's prompt is appended to,
	// headed by its phase and topic, so tests can read what rgit asked.
	PromptLog string
	// Usage, if set, is what every successful call reports (usage.go).
	Usage *agents.Usage
	// Profile, if set, is the profile the plan suggests (usage.go).
	Profile string
}

// Agent is the mock backend. It is safe for concurrent use.
type Agent struct {
	opts Options
	mu   sync.Mutex
	used []int // failures injected per rule, for PerProcess
}

var _ agents.Agent = (*Agent)(nil)

// New returns a mock agent.
func New(o Options) *Agent {
	return &Agent{opts: o, used: make([]int, len(o.Fail))}
}

// Name returns "mock".
func (a *Agent) Name() string { return "mock" }

// Run carries out one phase: after Options.Delay, it either injects the
// failure of the first rule that fires or writes the phase's output.
// Task.Timeout bounds the call as a real backend's would.
func (a *Agent) Run(ctx context.Context, task agents.Task) (agents.Result, error) {
	start := time.Now()
	callCtx := ctx
	if task.Timeout > 0 {
		var cancel context.CancelFunc
		callCtx, cancel = context.WithTimeout(ctx, task.Timeout)
		defer cancel()
	}
	var res agents.Result
	err := ctxErr(ctx)
	if err == nil && a.opts.PromptLog != "" {
		err = a.logPrompt(task)
	}
	if err == nil {
		err = sleep(callCtx, a.opts.Delay)
	}
	if err == nil {
		if rule, ok := a.firing(task); ok {
			res, err = inject(ctx, callCtx, rule, task)
		} else {
			res, err = work(task)
		}
		if err == nil && a.opts.Usage != nil {
			res.Usage = *a.opts.Usage
		}
		if err == nil && a.opts.Profile != "" && task.Phase == agents.PhasePlan {
			err = suggestProfile(task.Output, a.opts.Profile)
		}
	}
	res.Usage.Duration = time.Since(start)
	return res, err
}

// firing returns the first rule that fails this call, counting it when
// failures are counted per process.
func (a *Agent) firing(task agents.Task) (Rule, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i, r := range a.opts.Fail {
		if !r.matches(task) {
			continue
		}
		budget := r.times()
		if a.opts.PerProcess {
			if budget == All || a.used[i] < budget {
				a.used[i]++
				return r, true
			}
			continue
		}
		if budget == All || task.Attempt < budget {
			return r, true
		}
	}
	return Rule{}, false
}

// sleep waits d, or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctxErr(ctx)
	}
}

// ctxErr maps a finished context to the error a real backend returns: a
// deadline is an agents.ErrTimeout CallError, a cancel is ctx.Err().
func ctxErr(ctx context.Context) error {
	switch err := ctx.Err(); {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return &agents.CallError{Backend: "mock", Kind: agents.ErrTimeout, Msg: "call ran past its deadline"}
	default:
		return fmt.Errorf("mock: %w", err)
	}
}

// writeOutput writes a phase's file the way a CLI agent's write tool
// does: parent directories as needed, then the whole file.
func writeOutput(path, body string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create output dir: %w", err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

// relFiles is Result.Files for one written file.
func relFiles(task agents.Task) []string {
	if rel, err := filepath.Rel(task.Dir, task.Output); err == nil && task.Dir != "" {
		return []string{filepath.ToSlash(rel)}
	}
	return []string{task.Output}
}

// logPrompt appends the task's prompt to Options.PromptLog.
func (a *Agent) logPrompt(task agents.Task) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	f, err := os.OpenFile(a.opts.PromptLog, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("log prompt: %w", err)
	}
	_, err = fmt.Fprintf(f, "=== %s %s attempt %d\n%s\n", task.Phase, task.Brief.Topic, task.Attempt, task.Prompt)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

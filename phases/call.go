package phases

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

// maxRetries is how many times a failed phase is retried on one agent
// before the next agent in the fallback chain gets it.
const maxRetries = 3

// timeoutsBeforeSwitch: after this many timeouts of one backend the rest
// of the session moves to the next agent in the chain (seed 001).
const timeoutsBeforeSwitch = 2

// call is one phase to run through the failure ladder.
type call struct {
	phase    agents.Phase
	template string
	role     string // "model" or "review"
	topic    string
	output   string // absolute path the phase must produce
	vars     map[string]string
	brief    agents.Brief
	// gate checks the phase's output once it is on disk (or in the result).
	gate func(res agents.Result) error
	// textIsOutput: when the agent wrote no file, its final message is the output.
	textIsOutput bool
	// reset, if set, runs before every attempt, so a retry never starts
	// from a failed attempt's broken output.
	reset func() error
}

// outcome is a successful call.
type outcome struct {
	res     agents.Result
	agent   string
	model   string
	usage   agents.Usage // summed over every attempt
	elapsed time.Duration
}

// errExhausted: every attempt on every agent failed; the loop goes on.
var errExhausted = errors.New("retries exhausted")

// fatal reports errors that must stop the session (it stays resumable).
func fatal(err error) bool {
	return errors.Is(err, agents.ErrAuth) || errors.Is(err, agents.ErrQuota) || errors.Is(err, agents.ErrNotInstalled) ||
		errors.Is(err, context.Canceled)
}

// runCall drives one call: up to 1+maxRetries attempts per agent, down the
// fallback chain, with recovery prompts and notes.
func (r *run) runCall(ctx context.Context, c call) (outcome, error) {
	start := time.Now()
	var total agents.Usage
	chain := r.chain(c.role)
	var lastErr error
	for i := 0; i < len(chain); i++ {
		spec := chain[i]
		for attempt := 0; attempt <= maxRetries; attempt++ {
			if err := ctx.Err(); err != nil {
				return outcome{}, err
			}
			agent, model, err := r.agentFor(spec)
			if err != nil {
				return outcome{}, err
			}
			r.deps.Reporter.Report(Event{Kind: EventPhaseStart, Phase: string(c.phase), Topic: c.topic, Iteration: r.state.Iteration,
				Max: r.state.MaxIterations, Attempt: attempt, Agent: spec})
			res, err := r.attempt(ctx, c, agent, model, attempt, lastErr)
			total.Add(res.Usage)
			r.account(agent.Name(), res.Usage)
			if err == nil {
				r.state.FailedPhase, r.state.RetryCount = nil, 0
				if attempt > 0 || i > 0 {
					r.state.PhaseRecovered = true
					r.events = append(r.events, fmt.Sprintf("Recovered: succeeded on attempt %d with %s after: %s", attempt+1, spec, oneLine(Redact(lastErr.Error()))))
				}
				return outcome{res: res, agent: agent.Name(), model: spec, usage: total, elapsed: time.Since(start)}, nil
			}
			if ctx.Err() != nil {
				return outcome{}, ctx.Err()
			}
			if fatal(err) {
				return outcome{}, err
			}
			lastErr = err
			r.noteFailure(c, spec, attempt, err)
			if errors.Is(err, agents.ErrTimeout) {
				r.state.Timeouts[spec]++
				if r.state.Timeouts[spec] >= timeoutsBeforeSwitch && i+1 < len(chain) {
					r.switchAgent(c, spec, chain[i+1])
					break
				}
			}
			if attempt < maxRetries {
				r.state.Retried++
				r.deps.Reporter.Report(Event{Kind: EventRetry, Phase: string(c.phase), Topic: c.topic, Attempt: attempt + 1, Agent: spec, Message: err.Error()})
			}
		}
	}
	return outcome{usage: total, elapsed: time.Since(start)}, fmt.Errorf("%w: %s: %w", errExhausted, c.phase, lastErr)
}

// attempt makes one agent call and checks its gate.
func (r *run) attempt(ctx context.Context, c call, agent agents.Agent, model string, attempt int, lastErr error) (agents.Result, error) {
	prompt, err := r.render(c, attempt, lastErr)
	if err != nil {
		return agents.Result{}, err
	}
	if c.reset != nil {
		if err := c.reset(); err != nil {
			return agents.Result{}, fmt.Errorf("reset %s: %w", filepath.Base(c.output), err)
		}
	}
	statBefore, _ := os.Stat(c.output)
	task := agents.Task{
		Phase: c.phase, Prompt: prompt, Dir: r.ws, Root: r.root, Output: c.output, Model: model,
		Timeout: time.Duration(r.state.Timeout) * time.Second, Attempt: attempt, Brief: c.brief,
		SessionID: r.state.AgentSession[agent.Name()+"|"+c.role+"|"+c.topic],
	}
	callCtx := ctx
	if task.Timeout > 0 {
		var cancel context.CancelFunc
		callCtx, cancel = context.WithTimeout(ctx, task.Timeout)
		defer cancel()
	}
	var dirty map[string]string
	guard := !confined[agent.Name()]
	if guard {
		dirty, guard = r.worktreeChanges(ctx)
	}
	t0 := time.Now()
	res, err := agent.Run(callCtx, task)
	if res.Usage.Duration == 0 {
		res.Usage.Duration = time.Since(t0)
	}
	if err != nil {
		if errors.Is(callCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil && !errors.Is(err, agents.ErrTimeout) {
			err = fmt.Errorf("%w after %s: %w", agents.ErrTimeout, task.Timeout, err)
		}
		return res, err
	}
	if res.SessionID != "" && c.topic != "" {
		r.state.AgentSession[agent.Name()+"|"+c.role+"|"+c.topic] = res.SessionID
	}
	if guard {
		if now, ok := r.worktreeChanges(ctx); ok {
			if err := outsideWrites(dirty, now); err != nil {
				return res, fmt.Errorf("%w: %w", agents.ErrBadOutput, err)
			}
		}
	}
	if err := redactFile(c.output); err != nil {
		return res, err
	}
	if c.textIsOutput && !written(statBefore, c.output) && strings.TrimSpace(res.Text) != "" {
		if err := writeFile(c.output, []byte(Redact(strings.TrimSpace(res.Text))+"\n")); err != nil {
			return res, fmt.Errorf("write %s: %w", filepath.Base(c.output), err)
		}
	}
	if c.gate != nil {
		if err := c.gate(res); err != nil {
			return res, fmt.Errorf("%w: %w", agents.ErrBadOutput, err)
		}
	}
	return res, nil
}

// written says whether the file at path was written since before was
// taken: an agent may rewrite identical bytes, which still counts.
func written(before os.FileInfo, path string) bool {
	after, err := os.Stat(path)
	if err != nil || after.Size() == 0 {
		return false
	}
	return before == nil || !after.ModTime().Equal(before.ModTime()) || after.Size() != before.Size() || !os.SameFile(before, after)
}

// render builds the prompt: the phase template, and on a retry the
// recovery template before it and phase_recovery.md after it.
func (r *run) render(c call, attempt int, lastErr error) (string, error) {
	vars := r.baseVars()
	for k, v := range c.vars {
		vars[k] = v
	}
	vars["attempt"] = fmt.Sprint(attempt)
	vars["output_file"] = c.output
	prompt, err := r.tmpl.Render(c.template, vars)
	if err != nil || attempt == 0 {
		return prompt, err
	}
	vars["failed_phase"] = string(c.phase)
	if lastErr != nil {
		vars["error"] = lastErr.Error()
	}
	notes, _ := os.ReadFile(filepath.Join(r.ws, "recovery.notes.md"))
	vars["recovery_notes"] = tail(string(notes), 4000)
	rec, err := r.tmpl.Render("recovery.md", vars)
	if err != nil {
		return "", err
	}
	again, err := r.tmpl.Render("phase_recovery.md", vars)
	if err != nil {
		return "", err
	}
	return rec + "\n\n" + prompt + "\n\n" + again, nil
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

// noteFailure appends to recovery.notes.md, committed with the next phase.
func (r *run) noteFailure(c call, spec string, attempt int, err error) {
	msg := Redact(err.Error())
	r.state.FailedPhase = ptr(string(c.phase))
	r.state.LastError = ptr(msg)
	r.state.RetryCount = attempt + 1
	f, ferr := os.OpenFile(filepath.Join(r.ws, "recovery.notes.md"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if ferr != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "## %s %s%s, attempt %d on %s\n\n- Error: %s\n\n", time.Now().UTC().Format(time.RFC3339), c.phase, phaseTopicSuffix(c.topic), attempt+1, spec, oneLineLong(msg))
}

func oneLineLong(s string) string {
	s = cleanLine(s)
	if len(s) > 2000 {
		s = s[:2000] + "..."
	}
	return s
}

func ptr(s string) *string { return &s }

package phases

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rgit-dev/rgit/agents"
)

// attempt makes one agent call and checks its gate. The agent's time is
// measured on rgit's clock. A conversation id is returned only when the
// agent call itself succeeded.
func (cr *callRunner) attempt(ctx context.Context, c call, in callInputs, agent agents.Agent, model string, n int, lastTry bool,
	lastErr error, sessionID, notes string) (agents.Result, error) {
	timeout := callTimeoutFor(c, in)
	prompt, err := cr.prompt(c, withTimeout(in.vars, timeout), n, lastErr, notes)
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
		Phase: c.phase, Prompt: prompt, Dir: cr.lay.Workspace(), Root: cr.lay.Root(), Output: c.output, Model: model,
		Timeout: timeout, Attempt: n, Brief: c.brief, SessionID: sessionID,
	}
	callCtx := ctx
	if task.Timeout > 0 {
		var cancel context.CancelFunc
		callCtx, cancel = context.WithTimeout(ctx, task.Timeout)
		defer cancel()
	}
	var before map[string]fileSig
	guard := !confined(agent.Name())
	if guard {
		before, guard = cr.outsideFiles(ctx)
	}
	t0 := cr.clock.Now()
	res, err := agent.Run(callCtx, task)
	res.Usage.Duration = since(cr.clock, t0)
	if c.seen != nil {
		c.seen.add(res.Sources, cr.clock.Now()) // read even when the call then failed
	}
	var outside error // checked after a failed call too: the user must hear of it
	if guard {
		if now, ok := cr.outsideFiles(ctx); ok {
			outside = outsideWrites(before, now)
		}
	}
	if err != nil {
		res.SessionID = ""
		if errors.Is(callCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil && !errors.Is(err, agents.ErrTimeout) {
			err = fmt.Errorf("%w after %s: %w", agents.ErrTimeout, task.Timeout, err)
		}
		if outside != nil {
			err = fmt.Errorf("%w; and %v", err, outside)
		}
		return res, err
	}
	if outside != nil {
		return res, fmt.Errorf("%w: %w", agents.ErrBadOutput, outside)
	}
	if err := redactFile(c.output); err != nil {
		return res, err
	}
	if err := cleanFile(c.output); err != nil {
		return res, err
	}
	if c.textIsOutput && !written(statBefore, c.output) && strings.TrimSpace(res.Text) != "" {
		if err := writeFile(c.output, []byte(CleanText(Redact(strings.TrimSpace(res.Text)))+"\n")); err != nil {
			return res, fmt.Errorf("write %s: %w", filepath.Base(c.output), err)
		}
	}
	if c.gate != nil {
		if err := c.gate(res); err != nil {
			return res, fmt.Errorf("%w: %w", agents.ErrBadOutput, err)
		}
	}
	if c.cite != nil {
		if err := c.cite(lastTry); err != nil {
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

// prompt builds the prompt: the phase template, and on a retry the
// recovery template before it and phase_recovery.md after it.
func (cr *callRunner) prompt(c call, base map[string]string, attempt int, lastErr error, notes string) (string, error) {
	vars := make(map[string]string, len(base)+len(c.vars)+5)
	for k, v := range base {
		vars[k] = v
	}
	for k, v := range c.vars {
		vars[k] = v
	}
	vars["attempt"] = fmt.Sprint(attempt)
	vars["output_file"] = c.output
	prompt, err := cr.tmpl.Render(c.template, vars)
	if err != nil || attempt == 0 {
		return prompt, err
	}
	vars["failed_phase"] = string(c.phase)
	if lastErr != nil {
		vars["error"] = lastErr.Error()
	}
	vars["recovery_notes"] = tail(notes, 4000)
	rec, err := cr.tmpl.Render("recovery.md", vars)
	if err != nil {
		return "", err
	}
	again, err := cr.tmpl.Render("phase_recovery.md", vars)
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

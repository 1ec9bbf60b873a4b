package phases

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/registry"
	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/prompts"
)

// callRunner runs calls down the failure ladder. It holds what every call
// shares (agents, templates, the layout, the clock, the reporter) and no
// session state: a call's inputs come in, a callResult comes out, and only
// applyCall changes the session. Calls with different outputs may run at
// once.
type callRunner struct {
	agents   *agentPool
	tmpl     *prompts.Set
	lay      layout.Layout
	clock    Clock
	reporter Reporter
}

// run drives one call: attempts on the agents of in.chain as the ladder
// says, with recovery prompts after failures.
func (cr *callRunner) run(ctx context.Context, c call, in callInputs) callResult {
	start := cr.clock.Now()
	var res callResult
	var total agents.Usage
	sessions := maps.Clone(in.sessions)
	notes := in.notes
	l := newLadder(in.chain, in.timeouts).tiers(in.fixes, in.restartsLeft)
	var lastErr error
	for {
		if err := ctx.Err(); err != nil {
			res.err = err
			return res
		}
		spec, n := l.spec()
		agent, model, err := cr.agents.get(spec)
		if err != nil {
			res.err = err
			return res
		}
		cr.reporter.Report(Event{Kind: EventPhaseStart, Phase: c.phase, Topic: c.topic, Iteration: in.iteration,
			Max: in.max, Attempt: n, Agent: spec})
		a := attempt{spec: spec, backend: agent.Name(), sessionKey: sessionKey(agent.Name(), c.role, c.topic), number: n}
		out, err := cr.attempt(ctx, c, in, agent, model, n, n >= l.fixes, lastErr, sessions[a.sessionKey], notes)
		out.Usage = in.prices.costed(agent.Name(), cmp.Or(out.Model, model), out.Usage)
		a.usage = out.Usage
		total.Add(out.Usage)
		if out.SessionID != "" && c.topic != "" {
			a.sessionID, sessions[a.sessionKey] = out.SessionID, out.SessionID
		}
		if err == nil {
			if l.recovering() {
				res.recovered = true
				res.events = append(res.events, fmt.Sprintf("Recovered: succeeded on attempt %d with %s after: %s", n+1, spec, oneLine(Redact(lastErr.Error()))))
			}
			a.ok = true
			res.attempts = append(res.attempts, a)
			res.out = outcome{res: out, agent: agent.Name(), model: ranAs(spec, out.Model), usage: total, elapsed: since(cr.clock, start)}
			return res
		}
		if ctx.Err() != nil {
			res.attempts = append(res.attempts, a)
			res.err = ctx.Err()
			return res
		}
		next := l.next()
		mv := l.failed(err)
		if mv == moveStop {
			res.attempts = append(res.attempts, a)
			res.err = err
			return res
		}
		lastErr = err
		msg := Redact(err.Error())
		note := fmt.Sprintf("## %s %s%s, attempt %d on %s\n\n- Error: %s\n\n",
			cr.clock.Now().UTC().Format(time.RFC3339), c.phase, phaseTopicSuffix(c.topic), n+1, spec, oneLineLong(msg))
		notes += note
		res.notes += note
		a.failure = &failure{msg: msg, timedOut: errors.Is(err, agents.ErrTimeout), retried: mv == moveRetry}
		res.attempts = append(res.attempts, a)
		res.track(mv, c, spec, n, msg, cr.clock.Now())
		switch mv {
		case moveSwitch:
			res.switchAgent(c.phase, spec, next, l.timeouts[spec], cr.clock.Now())
			cr.reporter.Report(Event{Kind: EventWarning, Message: strings.TrimPrefix(res.events[len(res.events)-1], "Fallback: ")})
		case moveRetry:
			cr.reporter.Report(Event{Kind: EventRetry, Phase: c.phase, Topic: c.topic, Attempt: l.attempt, Max: l.fixes, Agent: spec, Message: err.Error()})
		case moveExhausted:
			res.out = outcome{usage: total, elapsed: since(cr.clock, start)}
			res.err = fmt.Errorf("%w: %s: %w", errExhausted, c.phase, lastErr)
			return res
		case moveRestart:
			res.out = outcome{usage: total, elapsed: since(cr.clock, start)}
			res.err = fmt.Errorf("%w: %s: %w", errRestart, c.phase, lastErr)
			return res
		}
	}
}

// switchAgent records moving the rest of the session from one agent to
// the next, and why.
func (res *callResult) switchAgent(phase Phase, from, to string, timeouts int, at time.Time) {
	reason := fmt.Sprintf("%d timeouts of %s", timeouts, from)
	res.switches = append(res.switches, Switch{From: from, To: to, Reason: reason, At: unixSeconds(at), Phase: phase})
	res.events = append(res.events, "Fallback: "+fmt.Sprintf("switching from %s to %s for the rest of the session: %s", from, to, reason))
}

// agentPool builds each agent spec's agent once per run.
type agentPool struct {
	mu       sync.Mutex
	newAgent func(spec string) (agents.Agent, error)
	made     map[string]agents.Agent
}

// get returns the agent for spec and the model part of the spec.
func (p *agentPool) get(spec string) (agents.Agent, string, error) {
	_, model, _ := strings.Cut(spec, ":")
	if b, m, err := registry.Parse(spec); err == nil && b != "auto" {
		model = m // "opencode/minimax-m2.1-free" names a model without a ':'
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if a, ok := p.made[spec]; ok {
		return a, model, nil
	}
	if p.newAgent == nil {
		return nil, "", fmt.Errorf("no agent factory for %q", spec)
	}
	a, err := p.newAgent(spec)
	if err != nil {
		return nil, "", fmt.Errorf("agent %s: %w", spec, err)
	}
	if p.made == nil {
		p.made = map[string]agents.Agent{}
	}
	p.made[spec] = a
	return a, model, nil
}

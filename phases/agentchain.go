package phases

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/redact"
)

// chain is the ordered list of agent specs a role's phases try: the role's
// current model (after any session-wide switch) and then the fallback chain.
func (r *run) chain(role string) []string {
	primary := r.state.Model
	if role == "review" {
		primary = r.state.ReviewModel
	}
	for _, sw := range r.state.Switches {
		if sw.From == primary {
			primary = sw.To
		}
	}
	out := []string{primary}
	for _, f := range r.state.Fallback {
		if f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// agentFor builds (once per run) the agent for a spec.
func (r *run) agentFor(spec string) (agents.Agent, string, error) {
	_, model, _ := strings.Cut(spec, ":")
	if a, ok := r.agents[spec]; ok {
		return a, model, nil
	}
	if r.deps.NewAgent == nil {
		return nil, "", fmt.Errorf("no agent factory for %q", spec)
	}
	a, err := r.deps.NewAgent(spec)
	if err != nil {
		return nil, "", fmt.Errorf("agent %s: %w", spec, err)
	}
	r.agents[spec] = a
	return a, model, nil
}

// switchAgent moves the rest of the session from one agent to the next and
// records when and why.
func (r *run) switchAgent(c call, from, to string) {
	reason := fmt.Sprintf("%d timeouts of %s", r.state.Timeouts[from], from)
	r.state.Switches = append(r.state.Switches, Switch{From: from, To: to, Reason: reason,
		At: float64(time.Now().UnixNano()) / 1e9, Phase: string(c.phase)})
	msg := fmt.Sprintf("switching from %s to %s for the rest of the session: %s", from, to, reason)
	r.events = append(r.events, "Fallback: "+msg)
	r.warn(msg)
}

// account adds one call's usage to the per-backend totals.
func (r *run) account(backend string, u agents.Usage) {
	t := r.state.Usage[backend]
	if t == nil {
		t = &Totals{}
		r.state.Usage[backend] = t
	}
	t.Calls++
	t.InputTokens += u.InputTokens
	t.OutputTokens += u.OutputTokens
	t.CachedTokens += u.CachedTokens
	t.CostUSD += u.CostUSD
	t.Seconds += u.Duration.Seconds()
}

// Redact replaces every secret in s (see package agents/redact), so that
// none reaches a commit, a log or the terminal.
func Redact(s string) string {
	return redact.Env().String(s)
}

// redactFile removes secret values an agent may have copied into its
// output, before the file can reach a commit.
func redactFile(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	if clean := Redact(string(data)); clean != string(data) {
		return writeFile(path, []byte(clean))
	}
	return nil
}

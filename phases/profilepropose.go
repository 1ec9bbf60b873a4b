package phases

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"time"
)

// suggestedProfile reads the plan's optional "- Suggested Profile: NAME"
// metadata line: the planner's judgement of the question's scope. rgit
// renders the plan itself, so the line is read from the agent's file.
func suggestedProfile(data []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		rest, ok := strings.CutPrefix(strings.ToLower(line), "- suggested profile:")
		if ok {
			name := strings.Trim(strings.TrimSpace(rest), "`*_ .")
			if strings.ContainsAny(name, " ,<>|/") {
				return "" // the template's placeholder, or no single choice
			}
			return name
		}
	}
	return ""
}

// considerProfile asks the user whether to take the profile the planner
// suggested, as the iteration warning asks: only when no profile was
// chosen (--profile or research.profile), and only with a terminal. A
// run without one, or with --yes, keeps its profile and says so. Taking
// it changes what neither a flag nor git config set: breadth, depth,
// retries, time and budgets; the plan is then made for the new tree.
func (r *run) considerProfile(name string) error {
	if name == "" || !r.cfg.ProfileOpen || r.state.Council != nil {
		return nil
	}
	p, err := ProfileNamed(name)
	if err != nil {
		r.warn(fmt.Sprintf("the planner suggested an unknown profile %q; keeping %s", oneLine(CleanLine(name)), r.state.Profile))
		return nil
	}
	if p.Name == r.state.Profile {
		return nil
	}
	next := r.cfg.withProfile(p)
	changes := profileChanges(r.state.Settings, next)
	if changes == "" {
		return nil
	}
	if r.deps.Confirm == nil || r.cfg.Yes {
		r.notice(fmt.Sprintf("the planner suggests the %s profile (%s); keeping %s without a terminal to confirm: start with --profile %s to use it",
			p.Name, changes, r.state.Profile, p.Name))
		return nil
	}
	ok, err := r.deps.Confirm(fmt.Sprintf("The planner suggests the %s profile for this question (%s). Use it?", p.Name, changes))
	if err != nil {
		return fmt.Errorf("confirm profile: %w", err)
	}
	if !ok {
		r.notice("keeping the " + r.state.Profile + " profile")
		return nil
	}
	prices := r.state.prices()
	s := &r.state.Settings
	s.Breadth, s.Depth, s.MaxIterations, s.Profile = next.Breadth, next.Depth, next.MaxIterations, p.Name
	s.RetryLimits, s.TimeBudgetS = newRetryLimits(next), next.TimeBudget.Seconds()
	next.Prices = prices
	s.Budget = newBudget(next)
	r.cfg = next
	r.events = append(r.events, fmt.Sprintf("Profile: %s, suggested by the planner and confirmed (%s)", p.Name, changes))
	r.notice(fmt.Sprintf("using the %s profile: %s", p.Name, changes))
	return nil
}

// withProfile is c with profile p's values for every setting the user
// did not give (flag or git config), and the iteration limit such a tree
// needs unless --max-iterations was given.
func (c Config) withProfile(p Profile) Config {
	for _, s := range ProfileSettings {
		if !c.profileFixed[s.Flag] {
			_ = s.apply(&c, p, "") // a profile's own values always apply
		}
	}
	c.Profile = p.Name
	if !c.explicitMax {
		c.MaxIterations = MinIterations(c.Breadth, c.Depth)
	}
	return c
}

// profileChanges lists what taking next would change of s: "breadth 3 ->
// 2, depth 3 -> 1, ...".
func profileChanges(s Settings, next Config) string {
	var out []string
	change := func(what string, a, b any) {
		if fmt.Sprint(a) != fmt.Sprint(b) {
			out = append(out, fmt.Sprintf("%s %v -> %v", what, a, b))
		}
	}
	retries := newRetryLimits(next)
	change("breadth", s.Breadth, next.Breadth)
	change("depth", s.Depth, next.Depth)
	change("max iterations", s.MaxIterations, next.MaxIterations)
	if s.RetryLimits != nil {
		change("fix attempts", s.RetryLimits.MaxFixAttempts, retries.MaxFixAttempts)
		change("topic restarts", s.RetryLimits.MaxTopicRestarts, retries.MaxTopicRestarts)
	}
	change("time", limitText(s.timeBudget()), limitText(next.TimeBudget))
	var cost float64
	var tokens int64
	if s.Budget != nil {
		cost, tokens = s.Budget.MaxCostUSD, s.Budget.MaxTokens
	}
	change("max cost", costLimit(cost), costLimit(next.MaxCostUSD))
	change("max tokens", tokenLimit(tokens), tokenLimit(next.MaxTokens))
	return strings.Join(out, ", ")
}

func limitText(d time.Duration) string {
	if d <= 0 {
		return "none"
	}
	return d.String()
}

func costLimit(usd float64) string {
	if usd <= 0 {
		return "none"
	}
	return fmt.Sprintf("$%g", usd)
}

func tokenLimit(n int64) string {
	if n <= 0 {
		return "none"
	}
	return fmt.Sprint(n)
}

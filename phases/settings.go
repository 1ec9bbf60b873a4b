package phases

import (
	"fmt"
	"slices"
	"time"
)

// Settings are a session's effective settings. state.json records them
// once, inside State; a run's Config only asks for them. A new session
// takes them from its Config (newSettings); a resumed one keeps its own
// except where resumeSettings says the run may change them.
type Settings struct {
	Breadth       int      `json:"breadth"`
	Depth         int      `json:"depth"`
	MaxIterations int      `json:"max_iterations"`
	Model         string   `json:"model"`
	ReviewModel   string   `json:"review_model"`
	MockMode      bool     `json:"mock_mode"`
	Timeout       int      `json:"timeout"` // seconds per agent call
	TargetBranch  string   `json:"target_branch"`
	Fallback      []string `json:"fallback,omitempty"`
	TimeBudgetS   float64  `json:"time_budget_seconds,omitempty"`
	MaxPerTopic   int      `json:"max_passes_per_topic,omitempty"`
	Corpus        []string `json:"corpus,omitempty"`
	Jobs          int      `json:"jobs,omitempty"` // --jobs as given; 0 = the backends' default

	PhaseTimeouts *PhaseTimeouts `json:"phase_timeouts,omitempty"` // timeouts.go
	RetryLimits   *RetryLimits   `json:"retry_limits,omitempty"`   // retries.go
	Profile       string         `json:"profile,omitempty"`        // profile.go
	Budget        *Budget        `json:"budget,omitempty"`         // budget.go
}

// newSettings are a new session's settings: what cfg (normalized) asks
// for, with target the branch the report will be merged into.
func newSettings(cfg Config, target string) Settings {
	s := Settings{
		Breadth: cfg.Breadth, Depth: cfg.Depth, MaxIterations: cfg.MaxIterations,
		Model: cfg.Model, ReviewModel: cfg.ReviewModel, MockMode: cfg.MockMode,
		Timeout: int(cfg.Timeout / time.Second), TargetBranch: target, Fallback: cfg.Fallback,
		TimeBudgetS: cfg.TimeBudget.Seconds(), MaxPerTopic: cfg.MaxPerTopic, Corpus: cfg.Corpus,
		Jobs: cfg.Jobs,
	}
	if cfg.MockMode {
		s.Model, s.ReviewModel = "mock", "mock"
	}
	s.PhaseTimeouts = newTimeouts(cfg)
	s.RetryLimits = newRetryLimits(cfg)
	s.Profile = cfg.Profile
	s.Budget = newBudget(cfg)
	return s
}

// resumeSettings is what a resumed run may change of a session's settings,
// and the only place that decides it. From cfg (normalized):
//
//   - MaxIterations: raised, never lowered, and only by an explicit
//     --max-iterations; the minimum is the session's own
//     breadth^(depth+1)+5, not one computed from this run's flags.
//   - TimeBudgetS: replaced by a new --time (a budget is per run: the
//     resumed run gets the whole of it).
//   - Model, ReviewModel: replaced by a named agent (not "" or "auto");
//     --mock-mode replaces both with mock and sets MockMode.
//   - Fallback, Corpus: replaced when given.
//   - Timeout: replaced when positive.
//   - TargetBranch: replaced by --merge-into.
//   - Jobs: replaced when --jobs is given.
//
// lifted says a limit that may have stopped the session was raised or
// renewed, so the caller lets its research go on. Breadth, Depth and the
// per-topic pass cap belong to the session and never change: the plan was
// made for them.
func resumeSettings(prior Settings, cfg Config) (next Settings, lifted bool) {
	next = prior
	if cfg.explicitMax {
		want := max(cfg.MaxIterations, MinIterations(prior.Breadth, prior.Depth))
		if want > prior.MaxIterations {
			next.MaxIterations, lifted = want, true
		}
	}
	if cfg.TimeBudget > 0 {
		next.TimeBudgetS, lifted = cfg.TimeBudget.Seconds(), true
	}
	if named(cfg.Model) {
		next.Model = cfg.Model
	}
	if named(cfg.ReviewModel) {
		next.ReviewModel = cfg.ReviewModel
	}
	if cfg.MockMode {
		next.Model, next.ReviewModel, next.MockMode = "mock", "mock", true
	}
	if len(cfg.Fallback) > 0 {
		next.Fallback = cfg.Fallback
	}
	if cfg.Timeout > 0 {
		next.Timeout = int(cfg.Timeout / time.Second)
	}
	next.PhaseTimeouts = resumeTimeouts(prior, cfg)
	next.RetryLimits = resumeRetryLimits(prior, cfg)
	var raised bool
	if next.Budget, raised = resumeBudget(prior.Budget, cfg); raised {
		lifted = true
	}
	if cfg.MergeInto != "" {
		next.TargetBranch = cfg.MergeInto
	}
	if len(cfg.Corpus) > 0 {
		next.Corpus = cfg.Corpus
	}
	if cfg.Jobs > 0 {
		next.Jobs = cfg.Jobs
	}
	return next, lifted
}

// AgentResolver names the agent "auto" stands for in a role, and why; cmd
// provides it (it knows what is installed).
type AgentResolver func(spec string, role Role) (resolved, reason string)

// resolved replaces "auto" in the agent settings with the agent it stands
// for, so state.json, every Rgit-Model trailer, rgit log and the
// methodology name the agent that actually ran. note is told each choice.
func (s Settings) resolved(resolve AgentResolver, note func(string)) Settings {
	if resolve == nil {
		return s
	}
	one := func(spec string, role Role) string {
		if named(spec) {
			return spec
		}
		got, why := resolve(spec, role)
		if got == "" || got == spec {
			return spec
		}
		what := "research"
		if role == RoleReview {
			what = "review"
		}
		note(fmt.Sprintf("%s agent: %s (auto: %s)", what, got, why))
		return got
	}
	s.Model = one(s.Model, RoleResearch)
	s.ReviewModel = one(s.ReviewModel, RoleReview)
	fb := make([]string, 0, len(s.Fallback))
	for _, f := range s.Fallback {
		if f == "auto" {
			f = s.Model
		}
		if !slices.Contains(fb, f) {
			fb = append(fb, f)
		}
	}
	if len(s.Fallback) > 0 {
		s.Fallback = fb
	}
	return s
}

// named says whether an agent flag names an agent rather than leaving the
// choice to rgit.
func named(spec string) bool { return spec != "" && spec != "auto" }

// chain is the ordered list of agent specs a role's phases try: the role's
// agent (after any session-wide switch) and then the fallback chain.
func (s Settings) chain(role Role, switches []Switch) []string {
	primary := s.Model
	if role == RoleReview {
		primary = s.ReviewModel
	}
	for _, sw := range switches {
		if sw.From == primary {
			primary = sw.To
		}
	}
	out := []string{primary}
	for _, f := range s.Fallback {
		if f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// timeBudget is the --time budget; 0 means none.
func (s Settings) timeBudget() time.Duration {
	return time.Duration(s.TimeBudgetS * float64(time.Second))
}

// callTimeout is the per-call timeout; 0 means none.
func (s Settings) callTimeout() time.Duration { return time.Duration(s.Timeout) * time.Second }

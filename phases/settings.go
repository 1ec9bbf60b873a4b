package phases

import (
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

	PhaseTimeouts *PhaseTimeouts `json:"phase_timeouts,omitempty"` // timeouts.go
	RetryLimits   *RetryLimits   `json:"retry_limits,omitempty"`   // retries.go
	Profile       string         `json:"profile,omitempty"`        // profile.go
}

// newSettings are a new session's settings: what cfg (normalized) asks
// for, with target the branch the report will be merged into.
func newSettings(cfg Config, target string) Settings {
	s := Settings{
		Breadth: cfg.Breadth, Depth: cfg.Depth, MaxIterations: cfg.MaxIterations,
		Model: cfg.Model, ReviewModel: cfg.ReviewModel, MockMode: cfg.MockMode,
		Timeout: int(cfg.Timeout / time.Second), TargetBranch: target, Fallback: cfg.Fallback,
		TimeBudgetS: cfg.TimeBudget.Seconds(), MaxPerTopic: cfg.MaxPerTopic, Corpus: cfg.Corpus,
	}
	if cfg.MockMode {
		s.Model, s.ReviewModel = "mock", "mock"
	}
	s.PhaseTimeouts = newTimeouts(cfg)
	s.RetryLimits = newRetryLimits(cfg)
	s.Profile = cfg.Profile
	return s
}

// resumeSettings is what a resumed run may change of a session's settings,
// and the only place that decides it. From cfg (normalized):
//
//   - MaxIterations: raised, never lowered, and only by an explicit
//     --max-iterations; raised reports it (the caller then clears the
//     limit-reached mark, so the loop goes on).
//   - Model, ReviewModel: replaced by a named agent (not "" or "auto");
//     --mock-mode replaces both with mock and sets MockMode.
//   - Fallback, Corpus: replaced when given.
//   - Timeout: replaced when positive.
//   - TargetBranch: replaced by --merge-into.
//
// Breadth, Depth, the --time budget and the per-topic pass cap belong to
// the session and never change: the plan was made for them.
func resumeSettings(prior Settings, cfg Config) (next Settings, raised bool) {
	next = prior
	if cfg.explicitMax && cfg.MaxIterations > prior.MaxIterations {
		next.MaxIterations, raised = cfg.MaxIterations, true
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
	if cfg.MergeInto != "" {
		next.TargetBranch = cfg.MergeInto
	}
	if len(cfg.Corpus) > 0 {
		next.Corpus = cfg.Corpus
	}
	return next, raised
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

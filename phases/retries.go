package phases

import (
	"fmt"
	"slices"
	"time"
)

// RetryTracking is state.json's retry_tracking (seeds 001 and 003): every
// failed attempt the ladder handled, what became of it, the topics
// restarted and the ones given up.
type RetryTracking struct {
	TotalFailed           int             `json:"total_failed"`
	ExhaustedSubquestions []string        `json:"exhausted_subquestions"`
	Restarts              map[string]int  `json:"restarts,omitempty"` // per topic
	RestartHistory        []RestartRecord `json:"restart_history"`
	Events                []RetryEvent    `json:"events,omitempty"`
}

// RetryEvent is one failed attempt and the ladder's answer to it.
type RetryEvent struct {
	Kind    string  `json:"kind"` // retry, restart, fallback, switch, exhausted
	Phase   Phase   `json:"phase"`
	Topic   string  `json:"topic,omitempty"`
	Agent   string  `json:"agent"`
	Attempt int     `json:"attempt"` // 1 for the first attempt on Agent
	Reason  string  `json:"reason"`
	At      float64 `json:"time"`
}

// RestartRecord is one topic restarted from a clean slate (tier 2).
type RestartRecord struct {
	Topic  string  `json:"topic"`
	Stage  Stage   `json:"stage"`
	Phase  Phase   `json:"phase"`
	Reason string  `json:"reason"`
	At     float64 `json:"time"`
}

// The kinds of RetryEvent, by ladder move.
var retryKinds = map[move]string{moveRetry: "retry", moveRestart: "restart", moveFallback: "fallback",
	moveSwitch: "switch", moveExhausted: "exhausted"}

// RetryLimits are the two tiers' limits: fix attempts per agent
// (--max-fix-attempts) and restarts per topic (--max-topic-restarts).
type RetryLimits struct {
	MaxFixAttempts   int `json:"max_fix_attempts"`
	MaxTopicRestarts int `json:"max_topic_restarts"`
}

// Defaults of the two tiers.
const (
	defaultFixAttempts   = maxRetries
	defaultTopicRestarts = 1
)

// newRetryLimits reads cfg's limits: 0 asks for the default, a negative
// value for none.
func newRetryLimits(cfg Config) *RetryLimits {
	pick := func(v, def int) int {
		switch {
		case v == 0:
			return def
		case v < 0:
			return 0
		}
		return v
	}
	return &RetryLimits{MaxFixAttempts: pick(cfg.MaxFixAttempts, defaultFixAttempts), MaxTopicRestarts: pick(cfg.MaxTopicRestarts, defaultTopicRestarts)}
}

// resumeRetryLimits keeps the session's limits except those cfg names.
// A session from before the limits keeps the ladder it had: three fix
// attempts and no restart.
func resumeRetryLimits(prior Settings, cfg Config) *RetryLimits {
	l := RetryLimits{MaxFixAttempts: defaultFixAttempts}
	if prior.RetryLimits != nil {
		l = *prior.RetryLimits
	}
	asked := newRetryLimits(cfg)
	if cfg.MaxFixAttempts != 0 {
		l.MaxFixAttempts = asked.MaxFixAttempts
	}
	if cfg.MaxTopicRestarts != 0 {
		l.MaxTopicRestarts = asked.MaxTopicRestarts
	}
	return &l
}

// fixAttempts is tier 1's limit as the ladder takes it: 0 for the default
// (a session without limits), -1 for none.
func (s Settings) fixAttempts() int {
	switch {
	case s.RetryLimits == nil:
		return 0
	case s.RetryLimits.MaxFixAttempts == 0:
		return -1
	}
	return s.RetryLimits.MaxFixAttempts
}

// restartsLeft is how many restarts topic may still have.
func (s *State) restartsLeft(topic string) int {
	if s.RetryLimits == nil {
		return 0
	}
	return max(s.RetryLimits.MaxTopicRestarts-s.RetryTracking.Restarts[topic], 0)
}

// track records a failed attempt and the ladder's move, in the result
// for retry_tracking and as a line for the commit body.
func (res *callResult) track(mv move, c call, spec string, attempt int, reason string, at time.Time) {
	kind, ok := retryKinds[mv]
	if !ok {
		return
	}
	res.retries = append(res.retries, RetryEvent{Kind: kind, Phase: c.phase, Topic: c.topic, Agent: spec,
		Attempt: attempt + 1, Reason: oneLine(reason), At: unixSeconds(at)})
	what := fmt.Sprintf("%s%s attempt %d on %s failed: %s", c.phase, topicOf(c.topic), attempt+1, spec, oneLine(reason))
	switch mv {
	case moveRetry:
		res.events = append(res.events, "Retry: "+what+"; retrying with the recovery prompt")
	case moveRestart:
		res.events = append(res.events, "Restart: "+what+"; fix attempts spent, restarting the topic from a clean slate")
	case moveFallback:
		res.events = append(res.events, "Fallback: "+what+"; fix attempts and restarts spent, trying the next agent")
	case moveExhausted:
		res.events = append(res.events, "Exhausted: "+what+"; no agent left")
	}
}

func topicOf(topic string) string {
	if topic == "" {
		return ""
	}
	return fmt.Sprintf(" of %q", topic)
}

// init makes the lists state.json shows empty rather than null.
func (t *RetryTracking) init() {
	if t.ExhaustedSubquestions == nil {
		t.ExhaustedSubquestions = []string{}
	}
	if t.RestartHistory == nil {
		t.RestartHistory = []RestartRecord{}
	}
}

// trackRetries folds a call's retry events into retry_tracking.
func (s *State) trackRetries(events []RetryEvent) {
	t := &s.RetryTracking
	for _, e := range events {
		t.TotalFailed++
		t.Events = append(t.Events, e)
		if e.Kind == "exhausted" && e.Topic != "" && !slices.Contains(t.ExhaustedSubquestions, e.Topic) {
			t.ExhaustedSubquestions = append(t.ExhaustedSubquestions, e.Topic)
		}
	}
}

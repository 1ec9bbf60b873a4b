package phases

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// timedPhases are the phases with their own timeout (seed 001's
// phase-aware timeouts), in the order a session meets them.
var timedPhases = []Phase{PhasePlan, PhaseResearch, PhaseReview, PhaseSynthesize, PhaseFinalReview, PhaseRevise}

// defaultTimeouts are the per-phase defaults. The final review's grows
// with the report, up to finalReviewMax.
var defaultTimeouts = map[Phase]time.Duration{
	PhasePlan: 5 * time.Minute, PhaseResearch: 30 * time.Minute, PhaseReview: 5 * time.Minute,
	PhaseSynthesize: 20 * time.Minute, PhaseFinalReview: 10 * time.Minute, PhaseRevise: 15 * time.Minute,
}

const (
	finalReviewMax = 15 * time.Minute
	// finalReviewScale is the report size that earns the whole extra
	// five minutes; a smaller report earns its share.
	finalReviewScale = 100 << 10
)

// ParseTimeouts reads --timeout: "20m" (every phase), "1200" (seconds,
// every phase, as before), "research=45m,review=3m" (those phases), or a
// mix, "20m,review=3m". It returns the value for every phase (0 = none
// given) and the per-phase values.
func ParseTimeouts(spec string) (all time.Duration, per map[Phase]time.Duration, err error) {
	hint := "pass --timeout 20m, a number of seconds, or phase=duration pairs such as research=45m,review=3m (phases: " + phaseList() + ")"
	if strings.TrimSpace(spec) == "" {
		return 0, nil, badInput(hint, "empty --timeout")
	}
	for _, part := range strings.Split(spec, ",") {
		name, value, named := strings.Cut(strings.TrimSpace(part), "=")
		if !named {
			value = name
		}
		d, err := parseSpan(strings.TrimSpace(value))
		if err != nil {
			return 0, nil, badInput(hint, "invalid --timeout %q: %v", part, err)
		}
		if !named {
			all = d
			continue
		}
		p := Phase(strings.TrimSpace(name))
		if !slices.Contains(timedPhases, p) {
			return 0, nil, badInput(hint, "invalid --timeout %q: unknown phase %q", part, name)
		}
		if per == nil {
			per = map[Phase]time.Duration{}
		}
		per[p] = d
	}
	return all, per, nil
}

// parseSpan reads a positive duration: Go syntax ("45m", "1h30m") or a
// bare number of seconds.
func parseSpan(s string) (time.Duration, error) {
	var d time.Duration
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n > int64(1<<31) {
			return 0, fmt.Errorf("%d seconds is too long", n)
		}
		d = time.Duration(n) * time.Second
	} else if d, err = time.ParseDuration(s); err != nil {
		return 0, fmt.Errorf("not a duration")
	}
	if d < time.Second {
		return 0, fmt.Errorf("must be at least 1s")
	}
	return d, nil
}

func phaseList() string {
	names := make([]string, len(timedPhases))
	for i, p := range timedPhases {
		names[i] = string(p)
	}
	return strings.Join(names, ", ")
}

// PhaseTimeouts is state.json's phase_timeouts: the effective seconds per
// phase. The final review's value is its floor when FinalReviewMax is set:
// it then grows with the report up to that.
type PhaseTimeouts struct {
	Seconds        map[Phase]int `json:"seconds"`
	FinalReviewMax int           `json:"final_review_max,omitempty"`
}

// newTimeouts are a new session's effective timeouts: the defaults, then
// cfg's value for every phase, then its per-phase values.
func newTimeouts(cfg Config) *PhaseTimeouts {
	t := &PhaseTimeouts{Seconds: map[Phase]int{}, FinalReviewMax: int(finalReviewMax / time.Second)}
	for p, d := range defaultTimeouts {
		t.Seconds[p] = int(d / time.Second)
	}
	t.override(cfg)
	return t
}

// override applies cfg's --timeout; a value for the final review fixes it.
func (t *PhaseTimeouts) override(cfg Config) {
	if cfg.Timeout > 0 {
		for _, p := range timedPhases {
			t.Seconds[p] = int(cfg.Timeout / time.Second)
		}
		t.FinalReviewMax = 0
	}
	for p, d := range cfg.PhaseTimeouts {
		t.Seconds[p] = int(d / time.Second)
		if p == PhaseFinalReview {
			t.FinalReviewMax = 0
		}
	}
}

// resumeTimeouts: a resumed run keeps the session's timeouts except those
// its --timeout names. A session from before phase timeouts had one
// value, Timeout, for every phase.
func resumeTimeouts(prior Settings, cfg Config) *PhaseTimeouts {
	t := &PhaseTimeouts{Seconds: map[Phase]int{}}
	switch {
	case prior.PhaseTimeouts != nil:
		t.FinalReviewMax = prior.PhaseTimeouts.FinalReviewMax
		for p, s := range prior.PhaseTimeouts.Seconds {
			t.Seconds[p] = s
		}
	case prior.Timeout > 0:
		for _, p := range timedPhases {
			t.Seconds[p] = prior.Timeout
		}
	default:
		return newTimeouts(cfg)
	}
	t.override(cfg)
	return t
}

// timeouts lists the effective timeout of each phase for callInputs.
func (s Settings) timeouts() map[Phase]time.Duration {
	out := map[Phase]time.Duration{}
	if s.PhaseTimeouts == nil {
		return out
	}
	for p, sec := range s.PhaseTimeouts.Seconds {
		out[p] = time.Duration(sec) * time.Second
	}
	if s.PhaseTimeouts.FinalReviewMax > 0 {
		out[finalReviewMaxKey] = time.Duration(s.PhaseTimeouts.FinalReviewMax) * time.Second
	}
	return out
}

// finalReviewMaxKey carries the final review's ceiling in a timeouts map.
const finalReviewMaxKey Phase = "final-review-max"

// callTimeoutFor is a call's timeout: its phase's, else the session-wide
// one. The final review's grows with the size of the report under review.
func callTimeoutFor(c call, in callInputs) time.Duration {
	d, ok := in.phaseTimeouts[c.phase]
	if !ok {
		return in.timeout
	}
	if max, ok := in.phaseTimeouts[finalReviewMaxKey]; ok && c.phase == PhaseFinalReview && max > d {
		if fi, err := os.Stat(c.brief.ReviewPath); err == nil {
			extra := time.Duration(float64(max-d) * min(1, float64(fi.Size())/finalReviewScale))
			d += extra.Round(time.Second)
		}
	}
	return d
}

// withTimeout is vars with $timeout set to the call's own timeout.
func withTimeout(vars map[string]string, d time.Duration) map[string]string {
	out := make(map[string]string, len(vars)+1)
	for k, v := range vars {
		out[k] = v
	}
	out["timeout"] = fmt.Sprint(int(d / time.Second))
	return out
}

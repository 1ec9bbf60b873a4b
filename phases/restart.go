package phases

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/phases/plan"
)

// errRestart: a topic phase spent its fix attempts and the ladder restarts
// the topic from a clean slate (tier 2 of seed 001's two-tier retry).
var errRestart = fmt.Errorf("topic restart")

// restartTopic restarts a topic from a clean slate: its progress file and
// the reviews leave the tree (history keeps them), its counters, gaps,
// summary, steer and agent conversations are reset, and it goes back to
// the scheduler, which dispatches its research again.
func (r *run) restartTopic(ctx context.Context, t *plan.Topic, phase Phase, cause error, start time.Time) error {
	s := r.state
	if s.RetryTracking.Restarts == nil {
		s.RetryTracking.Restarts = map[string]int{}
	}
	s.RetryTracking.Restarts[t.Name]++
	n := s.RetryTracking.Restarts[t.Name]
	why := oneLineLong(Redact(cause.Error()))
	s.RetryTracking.RestartHistory = append(s.RetryTracking.RestartHistory, RestartRecord{Topic: t.Name, Stage: s.Stage,
		Phase: phase, Reason: why, At: unixSeconds(r.clock.Now())})
	for _, f := range []string{r.progressPath(t), r.lay.File(layout.ReviewAcceptedMD), r.lay.File(layout.ReviewRejectedMD)} {
		if err := removeIfExists(f); err != nil {
			return fmt.Errorf("restart %s: %w", t.Name, err)
		}
	}
	delete(s.Passes, t.Name)
	delete(s.Gaps, t.Name)
	delete(s.Summaries, t.Name)
	delete(s.NextSearch, t.Name)
	for k := range s.AgentSession {
		if strings.HasSuffix(k, "|"+t.Name) {
			delete(s.AgentSession, k)
		}
	}
	s.FailedPhase, s.RetryCount = nil, 0
	t.Status = plan.Pending
	limit := 0
	if s.RetryLimits != nil {
		limit = s.RetryLimits.MaxTopicRestarts
	}
	r.warn(fmt.Sprintf("%s of %q failed after %d fix attempts; restarting the topic from a clean slate (restart %d of %d)",
		phase, t.Name, s.fixAttemptsOr(), n, limit))
	hash, err := r.commit(ctx, record{phase: phase, topic: t.Name,
		summary: fmt.Sprintf("%s: %s restarted from a clean slate (restart %d of %d)", phase, t.Name, n, limit), body: why})
	if err != nil {
		return err
	}
	r.done(phase, t.Name, outcome{}, hash, start)
	return nil
}

// fixAttemptsOr is tier 1's limit as a number.
func (s Settings) fixAttemptsOr() int {
	switch n := s.fixAttempts(); {
	case n > 0:
		return n
	case n < 0:
		return 0
	}
	return maxRetries
}

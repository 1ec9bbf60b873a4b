package phases

import (
	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/phases/layout"
)

// absorb folds a call's result into the session, the only way a call
// changes it, and returns how the call ended. Recovery notes go to
// recovery.notes.md and events to the next commit's body.
func (r *run) absorb(phase Phase, res callResult) (outcome, error) {
	r.state.applyCall(phase, res)
	r.events = append(r.events, res.events...)
	if res.notes != "" {
		// Best effort, as before: the notes help the next attempt's
		// prompt; losing them loses no research.
		_ = appendFile(r.lay.File(layout.RecoveryNotesFile), []byte(res.notes))
	}
	return res.out, res.err
}

// applyCall replays a call's attempts onto the state in order: usage per
// backend, agent conversations, the last failure, timeouts, retries and
// fallback switches.
func (s *State) applyCall(phase Phase, res callResult) {
	for _, a := range res.attempts {
		s.account(a.backend, a.usage)
		if a.sessionID != "" {
			s.AgentSession[a.sessionKey] = a.sessionID
		}
		switch {
		case a.ok:
			s.FailedPhase, s.RetryCount = nil, 0
			s.noteRanAs(a.spec, res.out.model)
		case a.failure != nil:
			p := phase
			s.FailedPhase, s.LastError, s.RetryCount, s.FailedAgent = &p, ptr(a.failure.msg), a.number+1, a.spec
			if a.failure.timedOut {
				s.Timeouts[a.spec]++
			}
			if a.failure.retried {
				s.Retried++
			}
		}
	}
	if res.recovered {
		s.PhaseRecovered = true
	}
	s.Switches = append(s.Switches, res.switches...)
	s.trackRetries(res.retries)
}

// account adds one call's usage to the per-backend totals.
func (s *State) account(backend string, u agents.Usage) {
	t := s.Usage[backend]
	if t == nil {
		t = &Totals{}
		s.Usage[backend] = t
	}
	t.Calls++
	t.InputTokens += u.InputTokens
	t.OutputTokens += u.OutputTokens
	t.CachedTokens += u.CachedTokens
	t.CostUSD += u.CostUSD
	t.Seconds += u.Duration.Seconds()
}

func ptr(s string) *string { return &s }

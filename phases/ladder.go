package phases

import (
	"context"
	"errors"
	"maps"

	"github.com/rgit-dev/rgit/agents"
)

// maxRetries is how many times a failed phase is retried on one agent
// before the next agent in the fallback chain gets it.
const maxRetries = 3

// timeoutsBeforeSwitch: after this many timeouts of one backend the rest
// of the session moves to the next agent in the chain (seed 001).
const timeoutsBeforeSwitch = 2

// ladder is the failure ladder of one phase (seed 001's two-tier retry):
// tier 1, up to 1+fixes attempts on an agent with the recovery prompt;
// tier 2, when they are spent and the phase is a topic's, a restart of the
// topic from a clean slate (restartsLeft of them over the topic's life);
// only then the next agent of the chain, and at the end of the chain the
// phase is exhausted. Repeated timeouts of one agent (counted over the
// whole session) move on to the next agent at once and for good. It only
// decides; callRunner makes the calls and the topic step restarts.
type ladder struct {
	chain    []string
	agent    int            // index in chain of the agent to call
	attempt  int            // attempts already failed on chain[agent]
	timeouts map[string]int // timeouts per agent spec over the session (a copy)

	fixes        int // tier 1: retries per agent after the first attempt
	restartsLeft int // tier 2: topic restarts still allowed; 0 for other phases
}

// move is what the ladder says to do after a failed attempt.
type move int

const (
	moveRetry     move = iota + 1 // the same agent again, with the recovery prompt
	moveFallback                  // the next agent: this one used up its attempts
	moveSwitch                    // the next agent, for the rest of the session: repeated timeouts
	moveExhausted                 // no agent is left: the phase is given up
	moveStop                      // no retry can help (auth, quota, not installed, cancelled)
	moveRestart                   // tier 2: restart the topic from a clean slate
)

func newLadder(chain []string, timeouts map[string]int) *ladder {
	own := maps.Clone(timeouts)
	if own == nil {
		own = map[string]int{}
	}
	return &ladder{chain: chain, timeouts: own, fixes: maxRetries}
}

// tiers sets the fix attempts per agent (0: the default, negative: none)
// and the topic restarts left.
func (l *ladder) tiers(fixes, restartsLeft int) *ladder {
	switch {
	case fixes > 0:
		l.fixes = fixes
	case fixes < 0:
		l.fixes = 0
	}
	l.restartsLeft = max(restartsLeft, 0)
	return l
}

// spec is the agent to call next and attempt its attempt number (0 first).
func (l *ladder) spec() (spec string, attempt int) { return l.chain[l.agent], l.attempt }

// recovering says whether the next call follows a failure.
func (l *ladder) recovering() bool { return l.agent > 0 || l.attempt > 0 }

// next is the agent after the current one, "" at the end of the chain.
func (l *ladder) next() string {
	if l.agent+1 < len(l.chain) {
		return l.chain[l.agent+1]
	}
	return ""
}

// failed records a failed attempt and says what to do.
func (l *ladder) failed(err error) move {
	if fatal(err) {
		return moveStop
	}
	spec := l.chain[l.agent]
	if errors.Is(err, agents.ErrTimeout) {
		l.timeouts[spec]++
		if l.timeouts[spec] >= timeoutsBeforeSwitch && l.next() != "" {
			l.agent, l.attempt = l.agent+1, 0
			return moveSwitch
		}
	}
	if l.attempt < l.fixes {
		l.attempt++
		return moveRetry
	}
	if l.restartsLeft > 0 {
		l.restartsLeft--
		l.attempt = 0
		return moveRestart
	}
	if l.next() != "" {
		l.agent, l.attempt = l.agent+1, 0
		return moveFallback
	}
	return moveExhausted
}

// fatal reports errors that must stop the session (it stays resumable).
func fatal(err error) bool {
	return errors.Is(err, agents.ErrAuth) || errors.Is(err, agents.ErrQuota) || errors.Is(err, agents.ErrNotInstalled) ||
		errors.Is(err, context.Canceled)
}

package phases

import (
	"errors"
	"maps"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

// call is one phase to run through the failure ladder: what the agent is
// asked, where its output goes and how it is checked.
type call struct {
	phase    Phase
	template string
	role     Role
	topic    string
	output   string            // absolute path the phase must produce
	vars     map[string]string // template variables beyond the session's own
	brief    agents.Brief
	// gate checks the phase's output once it is on disk (or in the result).
	gate func(res agents.Result) error
	// textIsOutput: when the agent wrote no file, its final message is the output.
	textIsOutput bool
	// reset, if set, runs before every attempt, so a retry never starts
	// from a failed attempt's broken output.
	reset func() error
	// seen collects the pages every attempt's agent read; cite, when set,
	// checks the output's URL citations against them after the gate
	// (sourcegate.go). lastTry is the agent's last fix attempt, when cite
	// marks what it cannot verify instead of failing.
	seen *sourceSet
	cite func(lastTry bool) error
}

// callInputs is what a call reads of the session, gathered before it runs
// so that running it touches no session state.
type callInputs struct {
	vars      map[string]string // the session's template variables (baseVars)
	chain     []string          // agent specs to try, in order
	timeouts  map[string]int    // the session's timeouts per agent spec
	sessions  map[string]string // agent conversation ids by sessionKey
	notes     string            // recovery.notes.md so far
	iteration int
	max       int
	timeout   time.Duration // per agent call; 0 = none

	phaseTimeouts map[Phase]time.Duration // per phase, over timeout (timeouts.go)
	fixes         int                     // tier 1: fix attempts per agent; 0 = the default, -1 = none
	restartsLeft  int                     // tier 2: restarts the topic may still have
	prices        Prices                  // the session's price overrides (budgetprice.go)
}

// inputs gathers a call's inputs from the session state.
func (s *State) inputs(role Role, vars map[string]string, notes string) callInputs {
	return callInputs{
		vars: vars, chain: s.chain(role, s.Switches), timeouts: maps.Clone(s.Timeouts),
		sessions: maps.Clone(s.AgentSession), notes: notes,
		iteration: s.Iteration, max: s.MaxIterations, timeout: s.callTimeout(),
		phaseTimeouts: s.timeouts(), fixes: s.fixAttempts(), prices: s.prices(),
	}
}

// sessionKey names an agent conversation kept across attempts and passes.
func sessionKey(backend string, role Role, topic string) string {
	return backend + "|" + string(role) + "|" + topic
}

// callResult is everything a call did, for applyCall to fold into the
// session: the attempts in order, fallback switches, events for the next
// commit's body, and how it ended.
type callResult struct {
	out       outcome // the successful attempt (zero unless err is nil)
	attempts  []attempt
	switches  []Switch
	events    []string // "Recovered: ..." and "Fallback: ..." lines
	notes     string   // appended to recovery.notes.md
	recovered bool     // it succeeded after a failure
	err       error    // nil; errExhausted; errRestart; or an error that stops the session

	retries []RetryEvent // for retry_tracking (retries.go)
}

// outcome is a successful call.
type outcome struct {
	res     agents.Result
	agent   string // backend name
	model   string // the agent spec that succeeded
	usage   agents.Usage
	elapsed time.Duration
}

// attempt is one agent call of a phase.
type attempt struct {
	spec       string
	backend    string
	usage      agents.Usage
	sessionKey string
	sessionID  string   // the agent's conversation id, when it returned one
	number     int      // 0 for the first attempt on spec
	ok         bool     // the phase succeeded
	failure    *failure // a failure the ladder handled; nil when ok or when the session stops
}

// failure is a failed attempt as state.json and the recovery notes record it.
type failure struct {
	msg      string // the error, secrets removed
	timedOut bool   // counts toward the session's timeouts of the spec
	retried  bool   // a retry on the same agent follows
}

// errExhausted: every attempt on every agent failed; the loop goes on.
var errExhausted = errors.New("retries exhausted")

package phases

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// stateVersion is bumped when state.json changes incompatibly.
const stateVersion = 1

// State is state.json: every field of the seed's RWRState, plus what rgit
// needs to resume anywhere. It is committed with every phase, so the branch
// head is always a consistent checkpoint. The session's settings are
// recorded once, in the embedded Settings.
type State struct {
	OriginalTopic string `json:"original_topic"`
	Settings

	// The rest of the seed's RWRState, with its names.
	Iteration      int      `json:"iteration"`
	CurrentPhase   Phase    `json:"current_phase"`
	FailedPhase    *Phase   `json:"failed_phase"`
	RetryCount     int      `json:"retry_count"`
	LockToken      *string  `json:"lock_token"`
	StartTime      float64  `json:"start_time"`
	PhaseHistory   []string `json:"phase_history"`
	LastError      *string  `json:"last_error"`
	IsComplete     bool     `json:"is_complete"`
	PhaseRecovered bool     `json:"phase_recovered"`

	// rgit's own fields.
	Version       int                 `json:"rgit_state_version"`
	Name          string              `json:"name"`
	Stage         Stage               `json:"stage"`
	Slugs         map[string]string   `json:"slugs"`
	Exhausted     []string            `json:"exhausted,omitempty"`
	Gaps          map[string][]string `json:"gaps,omitempty"`
	Summaries     map[string]string   `json:"summaries,omitempty"`
	Passes        map[string]int      `json:"passes,omitempty"`
	AgentSession  map[string]string   `json:"agent_sessions,omitempty"`
	LimitReached  bool                `json:"limit_reached"`
	Limit         Limit               `json:"limit,omitempty"`                 // which limit stopped research
	LimitElapsedS float64             `json:"limit_elapsed_seconds,omitempty"` // the run's time when --time stopped it
	BudgetStop    *BudgetStop         `json:"budget_stop,omitempty"`           // what was spent when a budget stopped it (budget.go)
	FailedAgent   string              `json:"failed_agent,omitempty"`          // the agent of the last failed attempt (LastError)
	RanAs         map[string]string   `json:"agents_ran_as,omitempty"`         // an agent spec without a model -> spec:model its CLI reported
	Citations     *CitationTally      `json:"citations,omitempty"`             // the report's URL citations backed by sources (sourcetally.go)
	CorpusCommit  string              `json:"corpus_commit,omitempty"`         // the repository's commit the corpus was read at (verifycorpus.go)
	FinalGaps     []string            `json:"final_gaps,omitempty"`
	Retried       int                 `json:"retried_phases"`
	Timeouts      map[string]int      `json:"timeouts,omitempty"`
	Switches      []Switch            `json:"fallback_switches,omitempty"`
	Usage         map[string]*Totals  `json:"usage,omitempty"`
	Runs          []string            `json:"runs,omitempty"`

	// The loop decision (seed 003), loopdecision.go.
	LoopDecision *LoopDecision         `json:"loop_decision,omitempty"`
	NextSearch   map[string]NextSearch `json:"next_search,omitempty"`

	RetryTracking RetryTracking `json:"retry_tracking"` // retries.go
	Council       *CouncilState `json:"council,omitempty"`
}

// Switch records a move down the fallback chain.
type Switch struct {
	From   string  `json:"from"`
	To     string  `json:"to"`
	Reason string  `json:"reason"`
	At     float64 `json:"at"`
	Phase  Phase   `json:"phase"`
}

// Totals is what one backend cost over the whole session.
type Totals struct {
	Calls        int     `json:"calls"`
	InputTokens  int64   `json:"input_tokens"`
	OutputTokens int64   `json:"output_tokens"`
	CachedTokens int64   `json:"cached_tokens"`
	CostUSD      float64 `json:"cost_usd"`
	Seconds      float64 `json:"seconds"`
}

func (s *State) init() {
	if s.Slugs == nil {
		s.Slugs = map[string]string{}
	}
	if s.Gaps == nil {
		s.Gaps = map[string][]string{}
	}
	if s.Summaries == nil {
		s.Summaries = map[string]string{}
	}
	if s.Passes == nil {
		s.Passes = map[string]int{}
	}
	if s.AgentSession == nil {
		s.AgentSession = map[string]string{}
	}
	if s.Timeouts == nil {
		s.Timeouts = map[string]int{}
	}
	if s.Usage == nil {
		s.Usage = map[string]*Totals{}
	}
	if s.PhaseHistory == nil {
		s.PhaseHistory = []string{}
	}
	s.RetryTracking.init()
}

func (s *State) isExhausted(topic string) bool { return slices.Contains(s.Exhausted, topic) }

// AgentSeconds is the total time spent inside agent calls.
func (s *State) AgentSeconds() float64 {
	var t float64
	for _, b := range slices.Sorted(maps.Keys(s.Usage)) { // a fixed order: float sums depend on it
		t += s.Usage[b].Seconds
	}
	return t
}

// ParseState decodes state.json; file names the source in errors. Values
// outside rgit's vocabulary (stage, phases) are errors too.
func ParseState(file string, data []byte) (*State, error) {
	var s State
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, badInput("restore it from the branch ('rgit research --name N --resume') or remove the session branch",
			"%s: malformed state: %v", file, err)
	}
	if s.Version > stateVersion {
		return nil, badInput("upgrade rgit", "%s: state version %d is newer than this rgit (%d)", file, s.Version, stateVersion)
	}
	if s.Breadth < 1 || s.Depth < 0 || s.MaxIterations < 1 {
		return nil, badInput("restore it from the branch or start a new session", "%s: malformed state: breadth %d, depth %d, max_iterations %d", file, s.Breadth, s.Depth, s.MaxIterations)
	}
	if err := s.checkWords(file); err != nil {
		return nil, err
	}
	s.init()
	return &s, nil
}

// checkWords checks every vocabulary value of a state read from file.
func (s *State) checkWords(file string) error {
	if err := checkWord(file, "stage", s.Stage, knownStages); err != nil {
		return err
	}
	phases := []Phase{s.CurrentPhase}
	if s.FailedPhase != nil {
		phases = append(phases, *s.FailedPhase)
	}
	for _, h := range s.PhaseHistory {
		p, _, _ := strings.Cut(h, ":")
		phases = append(phases, Phase(p))
	}
	for _, sw := range s.Switches {
		phases = append(phases, sw.Phase)
	}
	for _, p := range phases {
		if err := checkWord(file, "phase", p, knownPhases); err != nil {
			return err
		}
	}
	return nil
}

// Marshal encodes state.json deterministically (maps are sorted by
// encoding/json): json.MarshalIndent's bytes, built faster (statejson.go).
func (s *State) Marshal() []byte {
	if data, ok := s.marshalSpliced(); ok {
		return data
	}
	return s.marshalPlain()
}

// marshalPlain is state.json as encoding/json writes it.
func (s *State) marshalPlain() []byte {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		panic(fmt.Sprintf("encode state: %v", err)) // only plain data: cannot fail
	}
	return append(data, '\n')
}

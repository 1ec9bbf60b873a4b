package phases

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// stateVersion is bumped when state.json changes incompatibly.
const stateVersion = 1

// State is state.json: every field of the seed's RWRState, plus what rgit
// needs to resume anywhere. It is committed with every phase, so the branch
// head is always a consistent checkpoint.
type State struct {
	// The seed's RWRState fields, with its names.
	OriginalTopic  string   `json:"original_topic"`
	Breadth        int      `json:"breadth"`
	Depth          int      `json:"depth"`
	Iteration      int      `json:"iteration"`
	CurrentPhase   string   `json:"current_phase"`
	FailedPhase    *string  `json:"failed_phase"`
	RetryCount     int      `json:"retry_count"`
	MaxIterations  int      `json:"max_iterations"`
	Model          string   `json:"model"`
	ReviewModel    string   `json:"review_model"`
	LockToken      *string  `json:"lock_token"`
	StartTime      float64  `json:"start_time"`
	PhaseHistory   []string `json:"phase_history"`
	LastError      *string  `json:"last_error"`
	IsComplete     bool     `json:"is_complete"`
	MockMode       bool     `json:"mock_mode"`
	PhaseRecovered bool     `json:"phase_recovered"`
	Timeout        int      `json:"timeout"`

	// rgit's own fields.
	Version      int                 `json:"rgit_state_version"`
	Name         string              `json:"name"`
	Stage        Stage               `json:"stage"`
	TargetBranch string              `json:"target_branch"`
	Fallback     []string            `json:"fallback,omitempty"`
	Slugs        map[string]string   `json:"slugs"`
	Exhausted    []string            `json:"exhausted,omitempty"`
	Gaps         map[string][]string `json:"gaps,omitempty"`
	Summaries    map[string]string   `json:"summaries,omitempty"`
	Passes       map[string]int      `json:"passes,omitempty"`
	AgentSession map[string]string   `json:"agent_sessions,omitempty"`
	LimitReached bool                `json:"limit_reached"`
	FinalGaps    []string            `json:"final_gaps,omitempty"`
	Retried      int                 `json:"retried_phases"`
	Timeouts     map[string]int      `json:"timeouts,omitempty"`
	Switches     []Switch            `json:"fallback_switches,omitempty"`
	Usage        map[string]*Totals  `json:"usage,omitempty"`
	Runs         []string            `json:"runs,omitempty"`
	TimeBudgetS  float64             `json:"time_budget_seconds,omitempty"`
	MaxPerTopic  int                 `json:"max_passes_per_topic,omitempty"`
	Corpus       []string            `json:"corpus,omitempty"`
}

// Stage is where the loop is.
type Stage string

// The stages, in order.
const (
	StagePlan        Stage = "plan"
	StageResearch    Stage = "research"
	StageSynthesize  Stage = "synthesize"
	StageFinalReview Stage = "final-review"
	StageRevise      Stage = "revise"
	StageComplete    Stage = "complete"
)

// Switch records a move down the fallback chain.
type Switch struct {
	From   string  `json:"from"`
	To     string  `json:"to"`
	Reason string  `json:"reason"`
	At     float64 `json:"at"`
	Phase  string  `json:"phase"`
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
}

func (s *State) isExhausted(topic string) bool { return slices.Contains(s.Exhausted, topic) }

// AgentSeconds is the total time spent inside agent calls.
func (s *State) AgentSeconds() float64 {
	var t float64
	for _, u := range s.Usage {
		t += u.Seconds
	}
	return t
}

// ParseState decodes state.json; file names the source in errors.
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
	s.init()
	return &s, nil
}

// Marshal encodes state.json deterministically (maps are sorted by encoding/json).
func (s *State) Marshal() []byte {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		panic(fmt.Sprintf("encode state: %v", err)) // only plain data: cannot fail
	}
	return append(data, '\n')
}

// writeFile writes a workspace file in place. It need not be atomic: the
// branch head is the truth, and every run restores the workspace from it
// before doing anything, so a file torn by a kill is replaced, never
// committed. Writing in place also avoids creating a new inode per file per
// phase, which is most of rgit's own time per phase.
func writeFile(path string, data []byte) error {
	err := os.WriteFile(path, data, 0o644)
	if errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		err = os.WriteFile(path, data, 0o644)
	}
	return err
}

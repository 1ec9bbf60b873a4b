package phases

import (
	"fmt"
	"time"

	"github.com/rgit-dev/rgit/phases/layout"
)

// PhaseRow is one phase commit, read back from its trailers.
type PhaseRow struct {
	Hash      string    `json:"hash"`
	When      time.Time `json:"when"`
	Phase     Phase     `json:"phase"`
	Iteration string    `json:"iteration,omitempty"`
	Topic     string    `json:"topic,omitempty"`
	Verdict   Verdict   `json:"verdict,omitempty"`
	Agent     string    `json:"agent,omitempty"`
	Model     string    `json:"model,omitempty"`
	Duration  string    `json:"duration,omitempty"`
	Tokens    string    `json:"tokens,omitempty"`
	Cost      string    `json:"cost,omitempty"`
	Summary   string    `json:"summary"`
	// Session wrote the commit: in a fork's log, the commits below its
	// fork commit are its source's (shared history). Set by Log only.
	Session string `json:"session,omitempty"`

	Decision string `json:"decision,omitempty"` // a review's loop decision, from the body (loopdecision.go)
}

// Log lists a session's phases, newest first, from the commit trailers.
func (in Inspector) Log(name string) ([]PhaseRow, error) {
	s, _, err := in.openSession(name)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	rows, err := phaseRows(s, layout.Branch(name), 0)
	if err != nil {
		return nil, err
	}
	return rows, markSessions(s, name, rows)
}

// markSessions names the session that wrote each row.
func markSessions(s Store, name string, rows []PhaseRow) error {
	h, err := readHistory(s, name)
	if err != nil {
		return err
	}
	owner := make(map[string]string, len(h.commits))
	for i, c := range h.commits {
		owner[c.Hash] = h.owner[i]
	}
	for i := range rows {
		rows[i].Session = owner[rows[i].Hash]
	}
	return nil
}

// phaseRows reads the newest limit (0: all) phase commits of a branch.
// Commits without an Rgit-Phase trailer are not rgit's and are skipped; a
// phase or verdict outside rgit's vocabulary is an error naming the commit.
func phaseRows(s Store, branch string, limit int) ([]PhaseRow, error) {
	commits, err := s.Log(branch, limit)
	if err != nil {
		return nil, fmt.Errorf("read history: %w", err)
	}
	rows := make([]PhaseRow, 0, len(commits))
	for _, c := range commits {
		tr := func(k TrailerKey) string { return c.Trailer(string(k)) }
		if tr(TrailerPhase) == "" {
			continue
		}
		row := PhaseRow{Hash: c.Hash, When: c.When, Phase: Phase(tr(TrailerPhase)), Iteration: tr(TrailerIteration),
			Topic: tr(TrailerTopic), Verdict: Verdict(tr(TrailerVerdict)), Agent: tr(TrailerAgent), Model: tr(TrailerModel),
			Duration: tr(TrailerDuration), Tokens: tr(TrailerTokens), Cost: tr(TrailerCost), Summary: c.Summary}
		where := "commit " + orNone(c.Hash)
		if err := checkWord(where, string(TrailerPhase), row.Phase, knownPhases); err != nil {
			return nil, err
		}
		if row.Verdict != "" {
			if err := checkWord(where, string(TrailerVerdict), row.Verdict, knownVerdicts); err != nil {
				return nil, err
			}
		}
		row.Decision = decisionLine(c.Body)
		rows = append(rows, row)
	}
	return rows, nil
}

package phases

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// A council (seed 000) is a session in which several agents research the
// whole question side by side, each on its own branch, then read and rank
// each other's reports before one of them synthesizes. This file holds
// its configuration and what state.json records of it; councilround.go
// runs it.

// DefaultMemberIterations caps a member's research iterations.
const DefaultMemberIterations = 10

// CouncilConfig is what `rgit research --council` asks for.
type CouncilConfig struct {
	Specs            []string // the members' agent specs, in order; empty: not a council
	Synthesizer      string   // agent spec of the synthesis; "" = the first member's
	MemberIterations int      // 0 = DefaultMemberIterations
	Member           string   // --member: run only this member's research loop
}

// CouncilMember is one member: its name (its branch suffix) and agent.
type CouncilMember struct {
	Name string `json:"name"`
	Spec string `json:"spec"`
}

// CouncilState is what state.json records of a council: its settings,
// set once, and from the octopus merge on, how its members fared.
type CouncilState struct {
	Members          []CouncilMember `json:"members"`
	Synthesizer      string          `json:"synthesizer"`
	MemberIterations int             `json:"member_iterations"`
	// Failed names each member left out, with its last error.
	Failed map[string]string `json:"failed,omitempty"`
	// Results are the members' records as the octopus merge took them.
	Results []MemberRecord `json:"results,omitempty"`
	// Ranking is the aggregate peer ranking, best first.
	Ranking []AggregateRank `json:"ranking,omitempty"`
}

// member returns the member called name.
func (c *CouncilState) member(name string) (CouncilMember, bool) {
	i := slices.IndexFunc(c.Members, func(m CouncilMember) bool { return m.Name == name })
	if i < 0 {
		return CouncilMember{}, false
	}
	return c.Members[i], true
}

func (c *CouncilState) names() []string {
	out := make([]string, len(c.Members))
	for i, m := range c.Members {
		out[i] = m.Name
	}
	return out
}

// active says whether the run asks for a council.
func (c CouncilConfig) active() bool { return len(c.Specs) > 0 }

// CouncilFailedError: every member of a council failed. Nothing was
// merged; each member's branch keeps what it committed, and a resume
// runs the members again from there.
type CouncilFailedError struct {
	Name   string
	Errors map[string]string // member -> its last error
}

func (e *CouncilFailedError) Error() string {
	names := make([]string, 0, len(e.Errors))
	for n := range e.Errors {
		names = append(names, n)
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + ": " + e.Errors[n]
	}
	return "every council member failed; nothing was merged (" + strings.Join(parts, "; ") + ")"
}

// Hint says how to go on.
func (e *CouncilFailedError) Hint() string {
	return fmt.Sprintf("fix what the errors name (see 'rgit agents'), then resume with 'rgit research --name %s --resume'", e.Name)
}

// runCouncil runs a council session's own stage; the loop takes over from
// synthesis on. A --member run ends after the member's research loop.
func (r *run) runCouncil(ctx context.Context) error {
	switch {
	case r.state.Council == nil:
		return nil
	case r.state.Stage == StageCouncil:
		return r.councilRound(ctx)
	case r.cfg.Council.Member != "":
		r.notice(fmt.Sprintf("council %s is past its members' research; nothing to do for member %s", r.cfg.Name, r.cfg.Council.Member))
		return errMemberOnly
	}
	return nil
}

// summary is the council's line in the run's summary.
func (c *CouncilState) summary() string {
	if c == nil {
		return ""
	}
	s := fmt.Sprintf("%d members (%s)", len(c.Members), strings.Join(c.names(), ", "))
	if len(c.Failed) > 0 {
		s += "; left out: " + strings.Join(slices.Sorted(mapKeys(c.Failed)), ", ")
	}
	return s
}

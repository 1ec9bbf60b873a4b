package phases

import (
	"context"
	"fmt"
	"regexp"
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

// memberNamePart is what a member name may hold: it ends a branch name.
var memberNamePart = regexp.MustCompile(`[^a-z0-9._-]+`)

// CouncilMembers names the members of specs: each is its backend, or
// backend-model when its backend appears more than once
// (mock:alpha,mock:beta -> mock-alpha, mock-beta). Two members of one
// name are bad input.
func CouncilMembers(specs []string) ([]CouncilMember, error) {
	backends := map[string]int{}
	for _, s := range specs {
		backends[backendOf(s)]++
	}
	var out []CouncilMember
	seen := map[string]bool{}
	for _, s := range specs {
		s = strings.TrimSpace(s)
		b := backendOf(s)
		if b == "" {
			return nil, badInput("name members as backend[:model], for example claude,codex:gpt-5.3-codex,mock:alpha", "invalid council member %q", s)
		}
		name := b
		if backends[b] > 1 {
			_, model, _ := strings.Cut(s, ":")
			if strings.Contains(b, "/") || model == "" {
				model = s
			}
			name = b + "-" + model
		}
		name = strings.Trim(memberNamePart.ReplaceAllString(strings.ToLower(name), "-"), "-.")
		if name == "" || seen[name] {
			return nil, badInput("list each agent once", "council member %q appears twice", s)
		}
		seen[name] = true
		out = append(out, CouncilMember{Name: name, Spec: s})
	}
	return out, nil
}

// backendOf is a spec's backend as far as naming goes: the part before
// ':' (a bare provider/model is opencode's).
func backendOf(spec string) string {
	head, _, _ := strings.Cut(strings.TrimSpace(spec), ":")
	if strings.Contains(head, "/") {
		return "opencode"
	}
	return head
}

// normalizeCouncil checks a council run's flags and fills in what a
// council implies: the synthesizer writes (and, unless named, reviews)
// the report, and there is no topic tree. It writes nothing.
func (c *Config) normalizeCouncil() error {
	cc := &c.Council
	if !cc.active() {
		if cc.Synthesizer != "" || cc.MemberIterations != 0 || (cc.Member != "" && !c.Resume) {
			return badInput("add --council SPEC,SPEC,... or resume a council session", "--synthesizer, --member-iterations and --member need a council")
		}
		return nil
	}
	if len(cc.Specs) < 2 {
		return badInput("name at least two agents: --council claude,codex (or --council auto)", "a council needs at least two members, got %d", len(cc.Specs))
	}
	members, err := CouncilMembers(cc.Specs)
	if err != nil {
		return err
	}
	if cc.MemberIterations < 0 {
		return badInput("pass --member-iterations 1 or more", "invalid --member-iterations %d", cc.MemberIterations)
	}
	if cc.MemberIterations == 0 {
		cc.MemberIterations = DefaultMemberIterations
	}
	if cc.Member != "" && !slices.ContainsFunc(members, func(m CouncilMember) bool { return m.Name == cc.Member }) {
		return badInput("name one of the members: "+strings.Join(memberNames(members), ", "), "--member %q is not a member of the council", cc.Member)
	}
	if cc.Synthesizer == "" {
		cc.Synthesizer = members[0].Spec
	}
	c.Model = cc.Synthesizer
	if !named(c.ReviewModel) {
		c.ReviewModel = cc.Synthesizer
	}
	c.Breadth, c.Depth, c.MaxIterations, c.MaxPerTopic = 1, 0, 0, 0
	return nil
}

func memberNames(ms []CouncilMember) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Name
	}
	return out
}

// newCouncil makes a new session a council when the run asks for one.
func (r *run) newCouncil() {
	cc := r.cfg.Council
	if !cc.active() {
		return
	}
	members, _ := CouncilMembers(cc.Specs) // checked by normalizeCouncil
	r.state.Council = &CouncilState{Members: members, Synthesizer: cc.Synthesizer, MemberIterations: cc.MemberIterations}
	r.state.Stage = StageCouncil
}

// checkCouncilResume refuses a council flag the session cannot take.
func (r *run) checkCouncilResume(prior *State) error {
	cc := r.cfg.Council
	if prior == nil {
		return nil
	}
	if prior.Council == nil && (cc.active() || cc.Member != "") {
		return badInput("drop --council and --member to resume it", "session %q is not a council", r.cfg.Name)
	}
	if prior.Council != nil && cc.Member != "" {
		if _, ok := prior.Council.member(cc.Member); !ok {
			return badInput("name one of the members: "+strings.Join(prior.Council.names(), ", "), "--member %q is not a member of council %s", cc.Member, r.cfg.Name)
		}
	}
	return nil
}

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

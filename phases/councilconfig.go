package phases

import (
	"regexp"
	"slices"
	"strings"
)

// How a council is configured: its members' names from their specs, and
// what a council implies for the rest of the session. All of it is
// checked before anything is written.

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

// memberNamePart is what a member name may hold: it ends a branch name.
var memberNamePart = regexp.MustCompile(`[^a-z0-9._-]+`)

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

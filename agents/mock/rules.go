package mock

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

// The failure kinds a Rule can inject.
const (
	KindTimeout = "timeout" // block until the deadline, then fail with agents.ErrTimeout
	KindHang    = "hang"    // block until ctx is done, ignoring Task.Timeout
	KindError   = "error"   // fail at once with a CallError, exit status 1
	KindGarbage = "garbage" // succeed, with output that breaks the phase contract
	KindMissing = "missing" // succeed without writing Task.Output
	// KindUnfetched succeeds with the phase's output plus one citation of a
	// URL the agent never fetched (research, synthesize, revise): the
	// citation gate must catch it.
	KindUnfetched = "unfetched"
	KindReject    = "reject" // review and final-review: a valid verdict that rejects (other phases run normally)
)

// All as Rule.Times makes a rule fail every matching call.
const All = -1

// AnyPhase as Rule.Phase matches every phase.
const AnyPhase agents.Phase = "*"

// Rule injects one kind of failure into matching calls.
//
// A rule fails a call while Task.Attempt < Times (All: always). The
// attempt number, not a count kept in the process, decides because it is
// part of the task: a session that is killed and resumed fails exactly
// the calls an uninterrupted session fails, which the crash tests need.
// So "error@research*2" fails the first two attempts of every research
// call it matches and lets the third through; name a topic to aim it.
// Options.PerProcess switches to counting matching calls in the process.
type Rule struct {
	Kind  string
	Phase agents.Phase // AnyPhase matches all
	Topic string       // case-insensitive substring of Brief.Topic; "" matches all
	Times int          // 0 is read as 1; All fails always
	// Model, when set, limits the rule to calls of that model, so one
	// member of a council (mock:NAME) can fail: "NAME=kind@phase...".
	Model string
}

func (r Rule) String() string {
	s := r.Kind + "@" + string(r.Phase)
	if r.Model != "" {
		s = r.Model + "=" + s
	}
	if r.Topic != "" {
		s += ":" + r.Topic
	}
	switch {
	case r.Times == All:
		s += "*all"
	case r.Times > 1:
		s += "*" + strconv.Itoa(r.Times)
	}
	return s
}

// matches reports whether the rule applies to the task at all.
func (r Rule) matches(t agents.Task) bool {
	if r.Phase != AnyPhase && r.Phase != t.Phase || r.Model != "" && r.Model != t.Model {
		return false
	}
	return r.Topic == "" || strings.Contains(strings.ToLower(t.Brief.Topic), strings.ToLower(r.Topic))
}

// times is the rule's failure budget, with 0 read as the default 1.
func (r Rule) times() int {
	if r.Times == 0 {
		return 1
	}
	return r.Times
}

var phases = []agents.Phase{
	agents.PhasePlan, agents.PhaseResearch, agents.PhaseReview, agents.PhaseSynthesize,
	agents.PhaseFinalReview, agents.PhaseRevise, agents.PhaseRefine, agents.PhaseRecovery,
	agents.PhaseMemberResearch, agents.PhaseRank, AnyPhase,
}

var kinds = []string{KindTimeout, KindHang, KindError, KindGarbage, KindMissing, KindUnfetched, KindReject}

// ParseRules reads a comma-separated list of "[model=]kind@phase[:topic][*times]",
// for example "timeout@research:Background*2,garbage@review,error@*", or
// "gamma=error@**all" to fail every call of mock:gamma.
// Times defaults to 1; "*all" fails every matching call. Spaces around
// items are ignored; a topic may not contain "," or "*".
func ParseRules(spec string) ([]Rule, error) {
	var rules []Rule
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		r, err := parseRule(item)
		if err != nil {
			return nil, fmt.Errorf("parse mock rule %q: %w", item, err)
		}
		rules = append(rules, r)
	}
	return rules, nil
}

func parseRule(item string) (Rule, error) {
	r := Rule{Times: 1}
	if model, rest, ok := strings.Cut(item, "="); ok && !strings.Contains(model, "@") {
		r.Model, item = strings.TrimSpace(model), rest
		if r.Model == "" {
			return r, fmt.Errorf(`empty model before "="`)
		}
	}
	kind, rest, ok := strings.Cut(item, "@")
	if !ok {
		return r, fmt.Errorf(`want "kind@phase[:topic][*times]"`)
	}
	r.Kind = strings.TrimSpace(kind)
	if !contains(kinds, r.Kind) {
		return r, fmt.Errorf("unknown kind %q; kinds are %s", r.Kind, strings.Join(kinds, ", "))
	}
	// The last "*" starts the count, unless it is the "*" phase itself.
	if i := strings.LastIndexByte(rest, '*'); i > 0 {
		n, err := parseTimes(strings.TrimSpace(rest[i+1:]))
		if err != nil {
			return r, err
		}
		r.Times, rest = n, rest[:i]
	}
	return parsePhaseTopic(r, rest)
}

func parseTimes(s string) (int, error) {
	if s == "all" {
		return All, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, fmt.Errorf(`times %q: want a number from 1 or "all"`, s)
	}
	return n, nil
}

func parsePhaseTopic(r Rule, s string) (Rule, error) {
	phase, topic, _ := strings.Cut(s, ":")
	r.Phase = agents.Phase(strings.TrimSpace(phase))
	r.Topic = strings.TrimSpace(topic)
	if !contains(phases, r.Phase) {
		names := make([]string, len(phases))
		for i, p := range phases {
			names[i] = string(p)
		}
		return r, fmt.Errorf("unknown phase %q; phases are %s", r.Phase, strings.Join(names, ", "))
	}
	return r, nil
}

func contains[T comparable](list []T, v T) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// FromEnv builds Options from RGIT_MOCK_FAIL (rules, as ParseRules reads
// them), RGIT_MOCK_DELAY (a time.ParseDuration value such as "200ms") and
// RGIT_MOCK_COUNT ("attempt", the default, or "process"; see Rule) and
// RGIT_MOCK_PROMPTS (a file every prompt is appended to, for tests) and
// RGIT_MOCK_USAGE (fixed tokens and cost per call, ParseUsage) and
// RGIT_MOCK_PROFILE (the profile its plans suggest).
func FromEnv(getenv func(string) string) (Options, error) {
	var o Options
	rules, err := ParseRules(getenv("RGIT_MOCK_FAIL"))
	if err != nil {
		return o, fmt.Errorf("read RGIT_MOCK_FAIL: %w", err)
	}
	o.Fail = rules
	if s := strings.TrimSpace(getenv("RGIT_MOCK_DELAY")); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d < 0 {
			return o, fmt.Errorf(`read RGIT_MOCK_DELAY %q: want a duration such as "200ms"`, s)
		}
		o.Delay = d
	}
	switch s := strings.TrimSpace(getenv("RGIT_MOCK_COUNT")); s {
	case "", "attempt":
	case "process":
		o.PerProcess = true
	default:
		return o, fmt.Errorf(`read RGIT_MOCK_COUNT %q: want "attempt" or "process"`, s)
	}
	o.PromptLog = strings.TrimSpace(getenv("RGIT_MOCK_PROMPTS"))
	if o.Usage, err = ParseUsage(getenv("RGIT_MOCK_USAGE")); err != nil {
		return o, fmt.Errorf("read RGIT_MOCK_USAGE: %w", err)
	}
	o.Profile = strings.TrimSpace(getenv("RGIT_MOCK_PROFILE"))
	return o, nil
}

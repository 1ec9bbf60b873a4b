package phases

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases/layout"
)

// MemberRecord is member.json: what a council member has done, committed
// with every step on its branch, so its branch head alone says where it
// is (here, or in another clone after a fetch).
type MemberRecord struct {
	Member    string `json:"member"`
	Spec      string `json:"spec"`
	Phase     Phase  `json:"phase,omitempty"` // the last committed step
	Iteration int    `json:"iteration"`       // research iterations committed
	// Complete: the research loop is over, by the marker or the cap.
	Complete bool `json:"research_complete"`
	// Marker: the report ended with <!-- RESEARCH_COMPLETE -->.
	Marker  bool `json:"marker,omitempty"`
	Refined bool `json:"refined,omitempty"`
	Ranked  bool `json:"ranked,omitempty"`
	// Sessions are the agent conversations of the research loop, by
	// sessionKey, so the next iteration resumes where the last stopped.
	Sessions map[string]string `json:"agent_sessions,omitempty"`
	Usage    Totals            `json:"usage"`
	Models   []string          `json:"models,omitempty"` // agent specs that succeeded, in order of first use
	Head     string            `json:"-"`                // the member branch's head, filled in when read
}

// readMember reads a member's record from its directory on disk; a member
// that has not committed yet gets a fresh one.
func readMember(lay layout.Layout, m CouncilMember) (MemberRecord, error) {
	rec := MemberRecord{Member: m.Name, Spec: m.Spec}
	path := lay.MemberFile(m.Name, layout.MemberStateFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return rec, nil
	}
	if err != nil {
		return rec, fmt.Errorf("read %s: %w", path, err)
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		return rec, badInput("remove the member's branch to run it again, or restore it", "%s: malformed member record: %v", path, err)
	}
	if rec.Member != m.Name {
		return rec, badInput("remove the member's branch to run it again", "%s: record of member %q, want %q", path, rec.Member, m.Name)
	}
	if rec.Phase != "" {
		if err := checkWord(path, "phase", rec.Phase, knownPhases); err != nil {
			return rec, err
		}
	}
	return rec, nil
}

// account adds one call's attempts to the member's usage.
func (rec *MemberRecord) account(res callResult) {
	for _, a := range res.attempts {
		rec.Usage.Calls++
		rec.Usage.InputTokens += a.usage.InputTokens
		rec.Usage.OutputTokens += a.usage.OutputTokens
		rec.Usage.CachedTokens += a.usage.CachedTokens
		rec.Usage.CostUSD += a.usage.CostUSD
		rec.Usage.Seconds += a.usage.Duration.Seconds()
	}
	if res.err == nil && res.out.model != "" && !slices.Contains(rec.Models, res.out.model) {
		rec.Models = append(rec.Models, res.out.model)
	}
}

// memberCommitter writes a member's commits on its own branch, through its
// own Store (a Store serves one goroutine). Like the session's committer
// it refuses to commit when the branch moved under it.
type memberCommitter struct {
	store  Store
	lay    layout.Layout
	member string
	base   string // the session commit a new member branch starts from
	head   string // the member branch as this run last saw it
	token  string
	clock  Clock
}

// step is one member commit.
type step struct {
	phase   Phase
	summary string
	body    string
	out     outcome
}

// write commits the member's directory with rec as member.json.
func (mc *memberCommitter) write(ctx context.Context, rec *MemberRecord, s step) (string, error) {
	rec.Phase = s.phase
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return "", fmt.Errorf("encode member record: %w", err)
	}
	if err := writeFile(mc.lay.MemberFile(mc.member, layout.MemberStateFile), append(data, '\n')); err != nil {
		return "", fmt.Errorf("write member record: %w", err)
	}
	branch := mc.lay.MemberBranch(mc.member)
	got, err := headOf(mc.store, branch)
	if err != nil {
		return "", fmt.Errorf("read member branch: %w", err)
	}
	if got != mc.head {
		return "", &BranchMovedError{Name: mc.lay.Name(), Branch: branch, Want: mc.head, Got: got}
	}
	msg := oneLine(s.summary)
	if s.body != "" {
		msg += "\n\n" + Redact(s.body)
	}
	hash, err := mc.store.Snapshot(ctx, gitstore.SnapshotOptions{
		Branch: branch, Base: mc.base, Mounts: mc.lay.MemberMounts(mc.member),
		Message: msg, Trailers: mc.trailers(rec, s), AllowEmpty: true, When: commitTime(mc.clock),
	})
	if err != nil {
		return "", fmt.Errorf("commit %s of %s: %w", s.phase, mc.member, err)
	}
	mc.head = hash
	rec.Head = hash
	return hash, nil
}

// trailers are a member commit's trailers, in vocab.go's order.
func (mc *memberCommitter) trailers(rec *MemberRecord, s step) []gitstore.Trailer {
	var out []gitstore.Trailer
	add := func(k TrailerKey, v string) {
		if v != "" {
			out = append(out, gitstore.Trailer{Key: string(k), Value: v})
		}
	}
	add(TrailerPhase, string(s.phase))
	add(TrailerIteration, strconv.Itoa(rec.Iteration))
	add(TrailerAgent, s.out.agent)
	add(TrailerModel, s.out.model)
	if s.out.elapsed > 0 {
		add(TrailerDuration, s.out.elapsed.Round(time.Millisecond).String())
	}
	if t := s.out.usage.Tokens(); t > 0 {
		add(TrailerTokens, strconv.FormatInt(t, 10))
	}
	if s.out.usage.CostUSD > 0 {
		add(TrailerCost, fmt.Sprintf("%.4f", s.out.usage.CostUSD))
	}
	add(TrailerRun, mc.token)
	add(TrailerMember, mc.member)
	return out
}

// usageOf is a member's usage as agents.Usage, for methodology tables.
func usageOf(t Totals) agents.Usage {
	return agents.Usage{InputTokens: t.InputTokens, OutputTokens: t.OutputTokens, CachedTokens: t.CachedTokens,
		CostUSD: t.CostUSD, Duration: time.Duration(t.Seconds * float64(time.Second))}
}

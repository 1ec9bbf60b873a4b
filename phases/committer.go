package phases

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/phases/plan"
)

// record describes one finished phase for its commit.
type record struct {
	phase    Phase
	topic    string
	summary  string
	body     string
	verdict  Verdict
	agent    string
	model    string
	usage    agents.Usage
	duration time.Duration
	parents  []string // further parents: the council's octopus merge
	wrote    []string // source records written for this commit (layout.Sealed)
}

// committer writes one commit per finished phase: state.json, the plan and
// progress.md next to the phase's output, snapshotted as one commit with
// trailers. It decides nothing. It refuses to commit when the session
// branch is not where this run left it: another writer moved it.
type committer struct {
	store Store
	lay   layout.Layout
	token string // this run's token, the Rgit-Run trailer
	clock Clock
	head  string // the branch head this run last saw; "" before the branch exists
	// fence runs under the store lock before the branch moves: a run that
	// lost the session lock cannot commit (fence.go).
	fence func() error
	// written, when set, runs once, after the next commit's files are on
	// disk and before its snapshot: the research stage starts the calls
	// the result allows there (schedule_run.go). What it changes in
	// memory reaches the following commit, as if it ran after this one.
	written func() error
}

// commit records the phase in st, writes the session files and commits
// the workspace; events go into the body.
func (r *run) commit(ctx context.Context, rec record) (string, error) {
	r.state.CurrentPhase = rec.phase
	r.state.PhaseHistory = append(r.state.PhaseHistory, string(rec.phase)+phaseTopicSuffix(rec.topic))
	events := r.events
	r.events = nil
	rec.wrote, r.wrote = r.wrote, nil
	return r.commits.write(ctx, r.state, r.plan, rec, events)
}

// write is one commit of the session as it is on disk.
func (c *committer) write(ctx context.Context, s *State, p *plan.Plan, rec record, events []string) (string, error) {
	if p != nil {
		if err := writeFile(c.lay.Plan(), plan.Render(p)); err != nil {
			return "", fmt.Errorf("write plan: %w", err)
		}
		if err := writeFile(c.lay.File(layout.ProgressFile), progressDoc(s, p)); err != nil {
			return "", fmt.Errorf("write progress: %w", err)
		}
	}
	if err := writeFile(c.lay.State(), s.Marshal()); err != nil {
		return "", fmt.Errorf("write state: %w", err)
	}
	msg := oneLine(CleanLine(rec.summary))
	body := strings.TrimSpace(CleanText(rec.body))
	if len(events) > 0 {
		body = strings.TrimSpace(body + "\n\n" + strings.Join(events, "\n"))
	}
	if body != "" {
		msg += "\n\n" + Redact(body)
	}
	base := ""
	if s.TargetBranch != "" {
		if h, err := c.store.Head(s.TargetBranch); err == nil {
			base = h
		}
	}
	if err := c.checkHead(); err != nil {
		return "", err
	}
	if f := c.written; f != nil {
		c.written = nil
		if err := f(); err != nil {
			return "", err
		}
	}
	hash, err := c.store.Snapshot(ctx, gitstore.SnapshotOptions{
		Branch: c.lay.Branch(), Base: base, Mounts: c.lay.Mounts(), Exclude: c.lay.Excludes(),
		Sealed: c.lay.Sealed(), Wrote: rec.wrote, Message: msg, Trailers: c.trailers(s, rec), AllowEmpty: true, When: commitTime(c.clock),
		Guard: c.fence, ExtraParents: rec.parents,
	})
	if err != nil && !errors.Is(err, gitstore.ErrNothingToCommit) {
		return "", fmt.Errorf("commit %s phase: %w", rec.phase, err)
	}
	c.head = hash
	return hash, nil
}

// checkHead makes sure the session branch is where this run left it.
func (c *committer) checkHead() error {
	got, err := headOf(c.store, c.lay.Branch())
	if err != nil {
		return fmt.Errorf("read session branch: %w", err)
	}
	if got != c.head {
		return &BranchMovedError{Name: c.lay.Name(), Branch: c.lay.Branch(), Want: c.head, Got: got}
	}
	return nil
}

// trailers are the phase's git trailers, in vocab.go's order.
func (c *committer) trailers(s *State, rec record) []gitstore.Trailer {
	var out []gitstore.Trailer
	add := func(k TrailerKey, v string) {
		if v != "" {
			out = append(out, gitstore.Trailer{Key: string(k), Value: v})
		}
	}
	add(TrailerPhase, string(rec.phase))
	add(TrailerIteration, strconv.Itoa(s.Iteration))
	add(TrailerTopic, CleanLine(rec.topic))
	add(TrailerAgent, rec.agent)
	add(TrailerModel, rec.model)
	add(TrailerVerdict, string(rec.verdict))
	if rec.duration > 0 {
		add(TrailerDuration, rec.duration.Round(time.Millisecond).String())
	}
	if t := rec.usage.Tokens(); t > 0 {
		add(TrailerTokens, strconv.FormatInt(t, 10))
	}
	if rec.usage.CostUSD > 0 {
		add(TrailerCost, fmt.Sprintf("%.4f", rec.usage.CostUSD))
	}
	add(TrailerRun, c.token)
	return out
}

func phaseTopicSuffix(topic string) string {
	if topic == "" {
		return ""
	}
	return ":" + topic
}

// progressDoc renders progress.md: the overall summary of the seed.
func progressDoc(s *State, p *plan.Plan) []byte {
	c := p.Counts()
	var b strings.Builder
	fmt.Fprintf(&b, "# Research Progress\n\n## Summary\n- Topic: %s\n- Iteration: %d of %d\n- Topics Completed: %d of %d\n- In Review: %d\n- In Progress: %d\n- Pending: %d\n",
		s.OriginalTopic, s.Iteration, s.MaxIterations, c.Complete, c.Total, c.InReview, c.InProgress, c.Pending)
	if len(s.Exhausted) > 0 {
		fmt.Fprintf(&b, "- Exhausted (%s): %s\n", ExhaustedTag, strings.Join(s.Exhausted, ", "))
	}
	b.WriteString("\n## Recent Activity\n")
	h := s.PhaseHistory
	for i := len(h) - 1; i >= 0 && i >= len(h)-10; i-- {
		fmt.Fprintf(&b, "- %s\n", h[i])
	}
	return []byte(b.String())
}

package phases

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases/plan"
)

// mounts maps the session's directories on disk to their tree paths.
func (r *run) mounts() []gitstore.Mount {
	return []gitstore.Mount{
		{Dir: r.ws, Tree: ".research/" + r.name},
		{Dir: r.reports, Tree: "reports/" + r.name},
	}
}

// excludes are never committed and never removed by a restore: the lock
// (and its temporary file) and the materialised archive.
func (r *run) excludes() []string {
	base := ".research/" + r.name + "/"
	return []string{base + LockFile, base + LockFile + ".tmp", base + "archive"}
}

// record describes one finished phase for its commit.
type record struct {
	phase    string
	topic    string
	summary  string
	body     string
	verdict  string
	agent    string
	model    string
	usage    agents.Usage
	duration time.Duration
}

// commit writes state, plan and progress next to the phase output and
// snapshots the session as one commit on its branch.
func (r *run) commit(ctx context.Context, rec record) (string, error) {
	s := r.state
	s.CurrentPhase = rec.phase
	s.PhaseHistory = append(s.PhaseHistory, rec.phase+phaseTopicSuffix(rec.topic))
	if r.plan != nil {
		if err := writeFile(filepath.Join(r.ws, "research_plan.md"), plan.Render(r.plan)); err != nil {
			return "", fmt.Errorf("write plan: %w", err)
		}
		if err := writeFile(filepath.Join(r.ws, "progress.md"), r.progressDoc()); err != nil {
			return "", fmt.Errorf("write progress: %w", err)
		}
	}
	if err := writeFile(filepath.Join(r.ws, "state.json"), s.Marshal()); err != nil {
		return "", fmt.Errorf("write state: %w", err)
	}
	trailers := []gitstore.Trailer{{Key: "Rgit-Phase", Value: rec.phase}, {Key: "Rgit-Iteration", Value: strconv.Itoa(s.Iteration)}}
	if rec.topic != "" {
		trailers = append(trailers, gitstore.Trailer{Key: "Rgit-Topic", Value: rec.topic})
	}
	if rec.agent != "" {
		trailers = append(trailers, gitstore.Trailer{Key: "Rgit-Agent", Value: rec.agent})
	}
	if rec.model != "" {
		trailers = append(trailers, gitstore.Trailer{Key: "Rgit-Model", Value: rec.model})
	}
	if rec.verdict != "" {
		trailers = append(trailers, gitstore.Trailer{Key: "Rgit-Verdict", Value: rec.verdict})
	}
	if rec.duration > 0 {
		trailers = append(trailers, gitstore.Trailer{Key: "Rgit-Duration", Value: rec.duration.Round(time.Millisecond).String()})
	}
	if t := rec.usage.Tokens(); t > 0 {
		trailers = append(trailers, gitstore.Trailer{Key: "Rgit-Tokens", Value: strconv.FormatInt(t, 10)})
	}
	if rec.usage.CostUSD > 0 {
		trailers = append(trailers, gitstore.Trailer{Key: "Rgit-Cost", Value: fmt.Sprintf("%.4f", rec.usage.CostUSD)})
	}
	trailers = append(trailers, gitstore.Trailer{Key: "Rgit-Run", Value: r.lock.info.Token})
	msg := oneLine(rec.summary)
	body := strings.TrimSpace(rec.body)
	if len(r.events) > 0 {
		body = strings.TrimSpace(body + "\n\n" + strings.Join(r.events, "\n"))
		r.events = nil
	}
	if body != "" {
		msg += "\n\n" + Redact(body)
	}
	base := ""
	if s.TargetBranch != "" {
		if h, err := r.store.Head(s.TargetBranch); err == nil {
			base = h
		}
	}
	hash, err := r.store.Snapshot(ctx, gitstore.SnapshotOptions{
		Branch: r.branch, Base: base, Mounts: r.mounts(), Exclude: r.excludes(),
		Message: msg, Trailers: trailers, AllowEmpty: true,
	})
	if err != nil && !errors.Is(err, gitstore.ErrNothingToCommit) {
		return "", fmt.Errorf("commit %s phase: %w", rec.phase, err)
	}
	return hash, nil
}

func phaseTopicSuffix(topic string) string {
	if topic == "" {
		return ""
	}
	return ":" + topic
}

func oneLine(s string) string {
	s = cleanLine(s)
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// progressDoc renders progress.md: the overall summary of the seed.
func (r *run) progressDoc() []byte {
	c := r.plan.Counts()
	var b strings.Builder
	fmt.Fprintf(&b, "# Research Progress\n\n## Summary\n- Topic: %s\n- Iteration: %d of %d\n- Topics Completed: %d of %d\n- In Review: %d\n- In Progress: %d\n- Pending: %d\n",
		r.state.OriginalTopic, r.state.Iteration, r.state.MaxIterations, c.Complete, c.Total, c.InReview, c.InProgress, c.Pending)
	if len(r.state.Exhausted) > 0 {
		fmt.Fprintf(&b, "- Exhausted (#RETRY_EXHAUSTED): %s\n", strings.Join(r.state.Exhausted, ", "))
	}
	b.WriteString("\n## Recent Activity\n")
	h := r.state.PhaseHistory
	for i := len(h) - 1; i >= 0 && i >= len(h)-10; i-- {
		fmt.Fprintf(&b, "- %s\n", h[i])
	}
	return []byte(b.String())
}

// removeIfExists deletes a file, ignoring its absence.
func removeIfExists(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

package phases

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases/plan"
)

const methodologyHeading = "## Methodology"

// addMethodology appends (or replaces) rgit's methodology section: how the
// research was done, which topics were exhausted, and the topic tree.
func (r *run) addMethodology(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read report: %w", err)
	}
	data = dropSection(data, methodologyHeading)
	c := r.plan.Counts()
	var b strings.Builder
	b.Write(bytes.TrimRight(data, "\n"))
	fmt.Fprintf(&b, "\n\n%s\n\n", methodologyHeading)
	fmt.Fprintf(&b, "- Research tree: breadth %d, depth %d; %d topics, %d complete.\n", r.state.Breadth, r.state.Depth, c.Total, c.Complete)
	fmt.Fprintf(&b, "- Iterations: %d of at most %d.\n", r.state.Iteration, r.state.MaxIterations)
	fmt.Fprintf(&b, "- Agents: research %s, review %s.\n", r.state.Model, r.state.ReviewModel)
	if len(r.state.Exhausted) > 0 {
		fmt.Fprintf(&b, "- Exhausted topics (#RETRY_EXHAUSTED, abandoned after %d attempts per agent):\n", maxRetries+1)
		for _, t := range r.state.Exhausted {
			fmt.Fprintf(&b, "  - %s\n", t)
		}
	}
	fmt.Fprintf(&b, "- History: every phase is a commit on `%s` (`rgit log --name %s`).\n\n", r.branch, r.name)
	b.WriteString(plan.Mermaid(r.plan))
	if !strings.HasSuffix(b.String(), "\n") {
		b.WriteByte('\n')
	}
	return writeFile(path, []byte(b.String()))
}

// dropSection removes a level-2 section (heading to the next level-2
// heading), so rgit's own section is replaced rather than repeated.
func dropSection(data []byte, heading string) []byte {
	i := bytes.Index(data, []byte("\n"+heading+"\n"))
	if i < 0 {
		return data
	}
	rest := data[i+1+len(heading):]
	end := bytes.Index(rest, []byte("\n## "))
	if end < 0 {
		return data[:i+1]
	}
	out := append([]byte{}, data[:i+1]...)
	return append(out, rest[end+1:]...)
}

// banner is the seed's warning for a report made before the research was done.
func (r *run) banner() string {
	c := r.plan.Counts()
	return fmt.Sprintf("---\n⚠️ **WARNING: ITERATION LIMIT REACHED**\n\n"+
		"This report was generated before all research topics were completed due to reaching the maximum iteration limit. Some findings may be incomplete or missing.\n\n"+
		"- Topics completed: %d of %d\n- Iterations executed: %d (limit: %d)\n"+
		"- To complete this research, resume with higher --max-iterations or run again without the limit\n---\n\n",
		c.Complete, c.Total, r.state.Iteration, r.state.MaxIterations)
}

// intermediate are the files the completion commit drops from the branch
// tree; history keeps them.
var intermediate = []string{"progress", "progress.md", "review.accepted.md", "review.rejected.md", "review.json", "completed.md", "recovery.notes.md"}

// finish completes the session: banner, a last commit without the
// intermediate files, the merge into the target branch, a repack.
func (r *run) finish(ctx context.Context) error {
	start := time.Now()
	if !r.state.IsComplete {
		report := r.reportPath()
		if r.state.LimitReached {
			data, err := os.ReadFile(report)
			if err != nil {
				return fmt.Errorf("read report: %w", err)
			}
			if !bytes.HasPrefix(data, []byte("---\n⚠️")) {
				if err := writeFile(report, append([]byte(r.banner()), data...)); err != nil {
					return fmt.Errorf("write banner: %w", err)
				}
			}
		}
		for _, f := range intermediate {
			if err := os.RemoveAll(filepath.Join(r.ws, f)); err != nil {
				return fmt.Errorf("clean workspace: %w", err)
			}
		}
		r.state.IsComplete = true
		c := r.plan.Counts()
		hash, err := r.commit(ctx, record{phase: "complete", summary: fmt.Sprintf("complete: %d of %d topics, %d iterations", c.Complete, c.Total, r.state.Iteration),
			body: "Intermediate files dropped from the tree; history keeps them."})
		if err != nil {
			return err
		}
		r.done("complete", "", outcome{}, hash, start)
	}
	return r.mergeReport(ctx)
}

// mergeReport brings reports/<name>/report.md into the target branch,
// once: a resumed run after a crash checks whether it is already there.
func (r *run) mergeReport(ctx context.Context) error {
	if r.cfg.NoMerge || r.state.TargetBranch == "" {
		if r.state.TargetBranch == "" && !r.cfg.NoMerge {
			r.warn("HEAD is detached and no --merge-into was given; the report stays on " + r.branch)
		}
		return r.repack(ctx)
	}
	path := "reports/" + r.name + "/report.md"
	mine, err := r.store.ReadFile(r.branch, path)
	if err != nil {
		return fmt.Errorf("read report at %s: %w", r.branch, err)
	}
	if theirs, err := r.store.ReadFile(r.state.TargetBranch, path); err == nil && bytes.Equal(theirs, mine) {
		r.merged = r.state.TargetBranch
		return r.repack(ctx)
	}
	hash, err := r.store.Merge(ctx, gitstore.MergeOptions{Source: r.branch, Target: r.state.TargetBranch, Paths: []string{path},
		Message:  fmt.Sprintf("Merge %s: report on %s", r.branch, oneLine(r.state.OriginalTopic)),
		Trailers: []gitstore.Trailer{{Key: "Rgit-Phase", Value: "merge"}, {Key: "Rgit-Run", Value: r.lock.info.Token}}})
	if errors.Is(err, gitstore.ErrConflict) {
		return &BadInputError{Msg: fmt.Sprintf("%s changed %s since the session started; nothing was merged", r.state.TargetBranch, path),
			Hint: fmt.Sprintf("merge it yourself (git merge %s), or rerun with --merge-into another branch", r.branch)}
	}
	if err != nil {
		return fmt.Errorf("merge into %s: %w", r.state.TargetBranch, err)
	}
	r.merged, r.mergeCommit = r.state.TargetBranch, hash
	return r.repack(ctx)
}

func (r *run) repack(ctx context.Context) error {
	if err := r.store.Repack(ctx); err != nil {
		r.warn(fmt.Sprintf("repack: %v", err))
	}
	return nil
}

// summary is what the user is told at the end of a run.
func (r *run) summary() Summary {
	s := Summary{Name: r.name, Branch: r.branch, Target: r.merged, MergeCommit: r.mergeCommit}
	if r.state == nil {
		return s
	}
	s.Iterations, s.MaxIter, s.Retried = r.state.Iteration, r.state.MaxIterations, r.state.Retried
	s.AgentTime = time.Duration(r.state.AgentSeconds() * float64(time.Second))
	s.Exhausted, s.LimitReached, s.Finished = r.state.Exhausted, r.state.LimitReached, r.state.IsComplete
	s.ReportPath = filepath.ToSlash(filepath.Join("reports", r.name, "report.md"))
	if r.plan != nil {
		c := r.plan.Counts()
		s.Complete, s.Total = c.Complete, c.Total
	}
	if s.LimitReached {
		s.Warning = fmt.Sprintf("iteration or time limit reached: %d of %d topics complete; resume with a higher --max-iterations to finish", s.Complete, s.Total)
	}
	return s
}

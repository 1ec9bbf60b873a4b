package phases

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/phases/plan"
)

const methodologyHeading = "## Methodology"

// addMethodology appends (or replaces) rgit's methodology section: how the
// research was done, which topics were exhausted, and the topic tree.
func (r *run) addMethodology(path string) error {
	if r.state.Council != nil {
		return r.councilMethodology(path)
	}
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
		fmt.Fprintf(&b, "- Exhausted topics (%s, abandoned after %d attempts per agent):\n", ExhaustedTag, maxRetries+1)
		for _, t := range r.state.Exhausted {
			fmt.Fprintf(&b, "  - %s\n", t)
		}
	}
	fmt.Fprintf(&b, "- History: every phase is a commit on `%s` (`rgit log --name %s`).\n\n", r.lay.Branch(), r.lay.Name())
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

// finish completes the session: banner, a last commit without the
// intermediate files, the merge into the target branch, a repack.
func (r *run) finish(ctx context.Context) error {
	start := r.clock.Now()
	if !r.state.IsComplete {
		report := r.lay.Report()
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
		for _, f := range layout.Intermediate() {
			if err := os.RemoveAll(r.lay.File(f)); err != nil {
				return fmt.Errorf("clean workspace: %w", err)
			}
		}
		r.state.IsComplete = true
		c := r.plan.Counts()
		summary := fmt.Sprintf("complete: %d of %d topics, %d iterations", c.Complete, c.Total, r.state.Iteration)
		if r.state.Council != nil {
			summary = "complete: council of " + r.state.Council.summary()
		}
		hash, err := r.commit(ctx, record{phase: PhaseComplete, summary: summary,
			body: "Intermediate files dropped from the tree; history keeps them."})
		if err != nil {
			return err
		}
		r.done(PhaseComplete, "", outcome{}, hash, start)
	}
	return r.mergeReport(ctx)
}

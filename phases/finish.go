package phases

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

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
	fmt.Fprintf(&b, "- Agents: research %s, review %s.\n", r.state.agentName(r.state.Model), r.state.agentName(r.state.ReviewModel))
	if r.state.LimitReached {
		fmt.Fprintf(&b, "- Stopped early: %s.\n", r.limitWarning(c.Complete, c.Total))
	}
	if len(r.state.Exhausted) > 0 {
		fmt.Fprintf(&b, "- Exhausted topics (%s, abandoned after %d attempts per agent):\n", ExhaustedTag, r.state.fixAttemptsOr()+1)
		for _, t := range r.exhaustedInOrder() {
			fmt.Fprintf(&b, "  - %s\n", t)
		}
	}
	b.WriteString(r.state.citationsLine())
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

// banner is the seed's warning for a report made before the research was
// done; it says which limit stopped it, with the real counts.
func (r *run) banner() string {
	c := r.plan.Counts()
	title, why, next := r.state.Limit.bannerTitle(), "reaching the maximum iteration limit",
		"resume with a higher --max-iterations"
	if r.state.Limit == LimitTime {
		why, next = "reaching the --time budget", "resume with a new --time budget"
	}
	figures := ""
	if r.state.Limit.isBudget() {
		why, next, figures = r.budgetBanner()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "---\n⚠️ **WARNING: %s**\n\n", title)
	if r.state.Council != nil {
		fmt.Fprintf(&b, "This report was generated before the council's members completed their research due to %s. Some findings may be incomplete or missing.\n\n", why)
		fmt.Fprintf(&b, "- Members' research: %s\n", r.state.Council.iterations())
	} else {
		fmt.Fprintf(&b, "This report was generated before all research topics were completed due to %s. Some findings may be incomplete or missing.\n\n", why)
		fmt.Fprintf(&b, "- Topics completed: %d of %d\n- Iterations executed: %d (limit: %d)\n", c.Complete, c.Total, r.state.Iteration, r.state.MaxIterations)
	}
	if r.state.Limit == LimitTime {
		fmt.Fprintf(&b, "- Time used: %s (budget: %s)\n", roundDur(r.state.LimitElapsedS), roundDur(r.state.TimeBudgetS))
	}
	b.WriteString(figures)
	fmt.Fprintf(&b, "- To complete this research, %s: rgit research --name %s --resume\n---\n\n", next, r.lay.Name())
	return b.String()
}

// bannerPrefix starts every banner, so a report keeps at most one.
const bannerPrefix = "---\n⚠️"

// roundDur rounds a time for people: to the second, or to 10ms below 10s.
func roundDur(seconds float64) time.Duration {
	d := time.Duration(seconds * float64(time.Second))
	if d < 10*time.Second {
		return d.Round(10 * time.Millisecond)
	}
	return d.Round(time.Second)
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
			if !bytes.HasPrefix(data, []byte(bannerPrefix)) {
				if err := writeFile(report, append([]byte(r.banner()), data...)); err != nil {
					return fmt.Errorf("write banner: %w", err)
				}
			}
		}
		if err := r.linkReport(); err != nil {
			return err
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

// exhaustedInOrder lists the exhausted topics breadth first (depth, then
// plan order), the order a sequential run gives them up in, so the report
// does not depend on which of several calls in flight failed first.
func (r *run) exhaustedInOrder() []string {
	out := slices.Clone(r.state.Exhausted)
	if r.plan == nil {
		return out
	}
	at := map[string]int{}
	depth := map[string]int{}
	for i, t := range r.plan.Topics {
		at[t.Name], depth[t.Name] = i, t.Depth
	}
	slices.SortStableFunc(out, func(a, b string) int {
		ia, oka := at[a]
		ib, okb := at[b]
		switch {
		case !oka || !okb:
			return cmp.Compare(boolInt(!oka), boolInt(!okb))
		case depth[a] != depth[b]:
			return cmp.Compare(depth[a], depth[b])
		}
		return cmp.Compare(ia, ib)
	})
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

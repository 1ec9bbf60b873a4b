package phases

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/phases/plan"
)

// applyResearch applies a topic's RESEARCH result: rgit adds the proposed
// subtopics, sets In Review and counts the iteration, and commits it.
func (r *run) applyResearch(ctx context.Context, t *plan.Topic, j topicJob, res topicResult) error {
	o, err := r.absorb(PhaseResearch, res.call)
	t.Status = plan.InProgress
	if err == nil || errors.Is(err, errExhausted) {
		if err := r.recordSources(res.sources, ""); err != nil {
			return err
		}
	}
	if errors.Is(err, errExhausted) {
		if j.output != j.progress {
			// What the last attempt left, as when it writes in place.
			if err := mirrorFile(j.output, j.progress); err != nil {
				return fmt.Errorf("write progress: %w", err)
			}
		}
		return r.exhaust(ctx, t, PhaseResearch, err, j.start)
	}
	if errors.Is(err, errRestart) {
		return r.restartTopic(ctx, t, PhaseResearch, err, j.start)
	}
	if err != nil {
		return err
	}
	if j.output != j.progress {
		if err := writeFile(j.progress, res.progress); err != nil {
			return fmt.Errorf("write progress: %w", err)
		}
	}
	var body strings.Builder
	if len(res.proposals) > 0 && t.Depth < r.state.Depth {
		added, dropped := r.plan.AddSubtopics(t.Name, res.proposals)
		for _, a := range added {
			fmt.Fprintf(&body, "Added subtopic: %s\n", a.Name)
		}
		for _, d := range dropped {
			fmt.Fprintf(&body, "Dropped subtopic %q: %s\n", d.Name, d.Reason)
			r.notice(fmt.Sprintf("subtopic %q not added: %s", d.Name, d.Reason))
		}
		r.state.Slugs = plan.Slugs(r.plan, r.state.Slugs)
	}
	if res.summary != "" {
		r.state.Summaries[t.Name] = res.summary
	}
	t.Status = plan.InReview
	r.state.Iteration++
	r.state.Passes[t.Name]++
	hash, err := r.commit(ctx, record{phase: PhaseResearch, topic: t.Name,
		summary: fmt.Sprintf("research: %s (iteration %d)", t.Name, r.state.Iteration), body: body.String(),
		agent: o.agent, model: o.model, usage: o.usage, duration: o.elapsed})
	if err != nil {
		return err
	}
	r.done(PhaseResearch, t.Name, o, hash, j.start)
	return nil
}

// applyReview applies a topic's REVIEW verdict: Complete, or back to In
// Progress with the gaps; rgit writes the review file and commits it.
func (r *run) applyReview(ctx context.Context, t *plan.Topic, j topicJob, res topicResult) error {
	o, err := r.absorb(PhaseReview, res.call)
	if errors.Is(err, errExhausted) {
		return r.exhaust(ctx, t, PhaseReview, err, j.start)
	}
	if errors.Is(err, errRestart) {
		return r.restartTopic(ctx, t, PhaseReview, err, j.start)
	}
	if err != nil {
		return err
	}
	d := res.decision
	r.state.recordDecision(t.Name, d)
	capped := !d.Accepted() && r.state.MaxPerTopic > 0 && r.state.Passes[t.Name] >= r.state.MaxPerTopic
	if err := r.writeReview(d, t.Name, capped); err != nil {
		return err
	}
	verdict := VerdictAccepted
	if d.Accepted() || capped {
		t.Status = plan.Complete
		delete(r.state.Gaps, t.Name)
	} else {
		verdict = VerdictRejected
		t.Status = plan.InProgress
		r.state.Gaps[t.Name] = d.Gaps
	}
	if err := r.markCompletion(); err != nil {
		return err
	}
	r.verdict = lastVerdict{v: verdict, gaps: len(d.Gaps)}
	hash, err := r.commit(ctx, record{phase: PhaseReview, topic: t.Name, verdict: verdict,
		summary: fmt.Sprintf("review: %s %s", t.Name, verdict), body: d.body(),
		agent: o.agent, model: o.model, usage: o.usage, duration: o.elapsed})
	if err != nil {
		return err
	}
	r.done(PhaseReview, t.Name, o, hash, j.start)
	return nil
}

// writeReview writes exactly one of review.accepted.md and review.rejected.md.
func (r *run) writeReview(d Decision, subject string, capped bool) error {
	acc, rej := r.lay.File(layout.ReviewAcceptedMD), r.lay.File(layout.ReviewRejectedMD)
	var b strings.Builder
	if d.Accepted() || capped {
		fmt.Fprintf(&b, "# Review: %s\n\nAccepted.\n\n%s\n", subject, d.Summary)
		if capped {
			fmt.Fprintf(&b, "\nAccepted at the per-topic pass limit (%d) despite these gaps:\n%s\n", r.state.MaxPerTopic, mdList(d.Gaps))
		}
		if err := removeIfExists(rej); err != nil {
			return err
		}
		return writeFile(acc, []byte(b.String()))
	}
	fmt.Fprintf(&b, "# Review: %s\n\nRejected.\n\n%s\n\n## Knowledge Gaps\n%s\n", subject, d.Summary, mdList(d.Gaps))
	if err := removeIfExists(acc); err != nil {
		return err
	}
	return writeFile(rej, []byte(b.String()))
}

// markCompletion writes completed.md once every topic is Complete.
func (r *run) markCompletion() error {
	c := r.plan.Counts()
	if c.Total > 0 && c.Complete == c.Total {
		return writeFile(r.lay.File(layout.CompletedFile), []byte("<promise>COMPLETE</promise>\n"))
	}
	return nil
}

// exhaust gives up on a topic after every retry on every agent failed:
// it is tagged #RETRY_EXHAUSTED and the loop goes on.
func (r *run) exhaust(ctx context.Context, t *plan.Topic, phase Phase, cause error, start time.Time) error {
	r.state.Exhausted = append(r.state.Exhausted, t.Name)
	r.warn(fmt.Sprintf("%s of %q failed after all retries; marked %s and moving on", phase, t.Name, ExhaustedTag))
	why := oneLineLong(Redact(cause.Error()))
	line := fmt.Sprintf("\n%s: %s gave up after %d attempts per agent: %s\n", ExhaustedTag, phase, r.state.fixAttemptsOr()+1, why)
	if err := appendFile(r.progressPath(t), []byte(line)); err != nil {
		return fmt.Errorf("mark exhausted: %w", err)
	}
	hash, err := r.commit(ctx, record{phase: phase, topic: t.Name, verdict: VerdictExhausted,
		summary: fmt.Sprintf("%s: %s exhausted (%s)", phase, t.Name, ExhaustedTag), body: why})
	if err != nil {
		return err
	}
	r.done(phase, t.Name, outcome{}, hash, start)
	return nil
}

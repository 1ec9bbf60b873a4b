package phases

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/phases/plan"
)

// researchTopic is one RESEARCH phase: the agent writes the topic's
// progress file; rgit applies its subtopics, sets In Review and counts the
// iteration.
func (r *run) researchTopic(ctx context.Context, t *plan.Topic) error {
	start := time.Now()
	out := r.progressPath(t)
	t.Status = plan.InProgress
	prior, priorErr := os.ReadFile(out)
	c := call{phase: agents.PhaseResearch, template: "research.md", role: "model", topic: t.Name, output: out,
		vars: r.topicVars(t), brief: r.topicBrief(t), textIsOutput: true,
		reset: func() error {
			if priorErr != nil {
				return removeIfExists(out)
			}
			return writeFile(out, prior)
		}}
	c.gate = func(agents.Result) error {
		data, err := os.ReadFile(out)
		if err != nil {
			return fmt.Errorf("research phase wrote no %s", filepath.Base(out))
		}
		return checkResearch(data)
	}
	o, err := r.runCall(ctx, c)
	if errors.Is(err, errExhausted) {
		return r.exhaust(ctx, t, "research", err, start)
	}
	if err != nil {
		return err
	}
	data, _ := os.ReadFile(out)
	var body strings.Builder
	if props := parseSubtopics(data); len(props) > 0 && t.Depth < r.state.Depth {
		added, dropped := r.plan.AddSubtopics(t.Name, props)
		for _, a := range added {
			fmt.Fprintf(&body, "Added subtopic: %s\n", a.Name)
		}
		for _, d := range dropped {
			fmt.Fprintf(&body, "Dropped subtopic %q: %s\n", d.Name, d.Reason)
			r.notice(fmt.Sprintf("subtopic %q not added: %s", d.Name, d.Reason))
		}
		r.state.Slugs = plan.Slugs(r.plan, r.state.Slugs)
	}
	if s := firstFinding(data); s != "" {
		r.state.Summaries[t.Name] = s
	}
	t.Status = plan.InReview
	r.state.Iteration++
	r.state.Passes[t.Name]++
	hash, err := r.commit(ctx, record{phase: "research", topic: t.Name,
		summary: fmt.Sprintf("research: %s (iteration %d)", t.Name, r.state.Iteration), body: body.String(),
		agent: o.agent, model: o.model, usage: o.usage, duration: o.elapsed})
	if err != nil {
		return err
	}
	r.done("research", t.Name, o, hash, start)
	return nil
}

// reviewTopic is one REVIEW phase: the review agent's verdict decides
// Complete or back to In Progress; rgit writes the review file.
func (r *run) reviewTopic(ctx context.Context, t *plan.Topic) error {
	start := time.Now()
	out := filepath.Join(r.ws, "review.json")
	_ = removeIfExists(out)
	brief := r.topicBrief(t)
	brief.ReviewPath = r.progressPath(t)
	vars := r.topicVars(t)
	vars["progress_files"] = fmt.Sprintf("- %s: %s", t.Name, brief.ReviewPath)
	var v Verdict
	c := call{phase: agents.PhaseReview, template: "review.md", role: "review", topic: t.Name, output: out, vars: vars, brief: brief,
		reset: func() error { return removeIfExists(out) }, gate: verdictGate(out, &v)}
	o, err := r.runCall(ctx, c)
	_ = removeIfExists(out)
	if errors.Is(err, errExhausted) {
		return r.exhaust(ctx, t, "review", err, start)
	}
	if err != nil {
		return err
	}
	capped := false
	if !v.Accepted() && r.state.MaxPerTopic > 0 && r.state.Passes[t.Name] >= r.state.MaxPerTopic {
		capped = true
	}
	if err := r.writeReview(v, t.Name, capped); err != nil {
		return err
	}
	verdict := "accepted"
	if v.Accepted() || capped {
		t.Status = plan.Complete
		delete(r.state.Gaps, t.Name)
	} else {
		verdict = "rejected"
		t.Status = plan.InProgress
		r.state.Gaps[t.Name] = v.Gaps
	}
	if err := r.markCompletion(); err != nil {
		return err
	}
	hash, err := r.commit(ctx, record{phase: "review", topic: t.Name, verdict: verdict,
		summary: fmt.Sprintf("review: %s %s", t.Name, verdict), body: reviewBody(v),
		agent: o.agent, model: o.model, usage: o.usage, duration: o.elapsed})
	if err != nil {
		return err
	}
	r.done("review", t.Name, o, hash, start)
	return nil
}

// writeReview writes exactly one of review.accepted.md and review.rejected.md.
func (r *run) writeReview(v Verdict, subject string, capped bool) error {
	acc, rej := filepath.Join(r.ws, "review.accepted.md"), filepath.Join(r.ws, "review.rejected.md")
	var b strings.Builder
	if v.Accepted() || capped {
		fmt.Fprintf(&b, "# Review: %s\n\nAccepted.\n\n%s\n", subject, v.Summary)
		if capped {
			fmt.Fprintf(&b, "\nAccepted at the per-topic pass limit (%d) despite these gaps:\n%s\n", r.state.MaxPerTopic, mdList(v.Gaps))
		}
		if err := removeIfExists(rej); err != nil {
			return err
		}
		return writeFile(acc, []byte(b.String()))
	}
	fmt.Fprintf(&b, "# Review: %s\n\nRejected.\n\n%s\n\n## Knowledge Gaps\n%s\n", subject, v.Summary, mdList(v.Gaps))
	if err := removeIfExists(acc); err != nil {
		return err
	}
	return writeFile(rej, []byte(b.String()))
}

func reviewBody(v Verdict) string {
	s := v.Summary
	if len(v.Gaps) > 0 {
		s += "\n\nGaps:\n" + mdList(v.Gaps)
	}
	return s
}

// markCompletion writes completed.md once every topic is Complete.
func (r *run) markCompletion() error {
	c := r.plan.Counts()
	if c.Total > 0 && c.Complete == c.Total {
		return writeFile(filepath.Join(r.ws, "completed.md"), []byte("<promise>COMPLETE</promise>\n"))
	}
	return nil
}

// exhaust gives up on a topic after every retry on every agent failed:
// it is tagged #RETRY_EXHAUSTED and the loop goes on.
func (r *run) exhaust(ctx context.Context, t *plan.Topic, phase string, cause error, start time.Time) error {
	r.state.Exhausted = append(r.state.Exhausted, t.Name)
	r.warn(fmt.Sprintf("%s of %q failed after all retries; marked #RETRY_EXHAUSTED and moving on", phase, t.Name))
	path := r.progressPath(t)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("mark exhausted: %w", err)
	}
	fmt.Fprintf(f, "\n#RETRY_EXHAUSTED: %s gave up after %d attempts per agent: %s\n", phase, maxRetries+1, oneLineLong(Redact(cause.Error())))
	if err := f.Close(); err != nil {
		return fmt.Errorf("mark exhausted: %w", err)
	}
	hash, err := r.commit(ctx, record{phase: phase, topic: t.Name, verdict: "exhausted",
		summary: fmt.Sprintf("%s: %s exhausted (#RETRY_EXHAUSTED)", phase, t.Name), body: oneLineLong(Redact(cause.Error()))})
	if err != nil {
		return err
	}
	r.done(phase, t.Name, outcome{}, hash, start)
	return nil
}

// firstFinding is a one-line summary of a progress file for its
// descendants' prompts.
func firstFinding(data []byte) string {
	body, ok := findSection(sections(data), "findings", "key findings")
	if !ok {
		return ""
	}
	for _, line := range strings.Split(string(body), "\n") {
		line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "-*+"))
		if line != "" {
			s := cleanLine(line)
			if len(s) > 160 {
				s = s[:157] + "..."
			}
			return s
		}
	}
	return ""
}

package phases

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/phases/plan"
)

// topicJob is one topic's research or review with everything it needs,
// gathered from the session by run.topicJob before it runs: the topic, its
// ancestors' summaries and last gaps (in vars and brief), the agents to
// try (in). Running it reads and writes only its own output file, which
// is in its own scratch directory when calls run at once (--jobs), so no
// commit ever holds another call's half-written output.
type topicJob struct {
	phase    Phase      // PhaseResearch or PhaseReview
	topic    plan.Topic // a copy: the step never sees the plan
	progress string     // the topic's progress file in the workspace
	output   string     // where the agent writes: progress or review.json, or their copies in scratch
	scratch  string     // the call's scratch directory; "" when it writes in place
	vars     map[string]string
	brief    agents.Brief
	in       callInputs
	start    time.Time  // when the step was started, for its done event
	sources  *sourceSet // research: the session's source records, which the call's reads join
}

// topicResult is what one topic step produced, for run to apply.
type topicResult struct {
	call      callResult
	progress  []byte          // research: the progress file as the agent left it
	proposals []plan.Proposal // research: the subtopics it proposes
	summary   string          // research: its first finding, for descendants' prompts
	decision  Decision        // review: the verdict
	sources   *sourceSet      // research: the records and what the call read, for sources/
}

// research runs one RESEARCH phase: the agent writes the topic's progress
// file, which must pass the research gate.
func (cr *callRunner) research(ctx context.Context, j topicJob) topicResult {
	out := j.output
	prior, priorErr := os.ReadFile(out)
	c := call{phase: PhaseResearch, template: "research.md", role: RoleResearch, topic: j.topic.Name, output: out,
		vars: j.vars, brief: j.brief, textIsOutput: true,
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
	if j.sources != nil {
		c.seen, c.cite = j.sources, citeGate(out, j.sources)
	}
	res := topicResult{call: cr.run(ctx, c, j.in), sources: j.sources}
	if res.call.err != nil {
		return res
	}
	res.progress, _ = os.ReadFile(out)
	res.proposals = parseSubtopics(res.progress)
	res.summary = firstFinding(res.progress)
	return res
}

// review runs one REVIEW phase: the review agent's verdict, from its
// final message or review.json.
func (cr *callRunner) review(ctx context.Context, j topicJob) topicResult {
	out := j.output
	_ = removeIfExists(out)
	var res topicResult
	c := call{phase: PhaseReview, template: "review.md", role: RoleReview, topic: j.topic.Name, output: out, vars: j.vars, brief: j.brief,
		reset: func() error { return removeIfExists(out) }, gate: decisionGate(out, &res.decision)}
	res.call = cr.run(ctx, c, j.in)
	_ = removeIfExists(out)
	return res
}

// runTopic runs a topic job's call.
func (cr *callRunner) runTopic(ctx context.Context, j topicJob) topicResult {
	if j.phase == PhaseReview {
		return cr.review(ctx, j)
	}
	return cr.research(ctx, j)
}

// topicJob gathers a topic step's inputs from the session. With scratch,
// the call writes into its own scratch directory, a research call starting
// from a copy of the topic's progress file.
func (r *run) topicJob(phase Phase, t *plan.Topic, scratch bool) (topicJob, error) {
	j := topicJob{phase: phase, topic: *t, progress: r.progressPath(t), vars: r.topicVars(t), brief: r.topicBrief(t), start: r.clock.Now()}
	role := RoleResearch
	j.output = j.progress
	if phase == PhaseReview {
		role = RoleReview
		j.output = r.lay.File(layout.ReviewJSON)
		j.brief.ReviewPath = j.progress
		j.vars["progress_files"] = fmt.Sprintf("- %s: %s", t.Name, j.progress)
	}
	j.in = r.inputs(role)
	if phase == PhaseResearch {
		j.sources = r.knownSources()
	}
	j.in.restartsLeft = r.state.restartsLeft(t.Name)
	if !scratch {
		return j, nil
	}
	j.scratch = r.lay.Scratch(string(phase) + "-" + r.slug(t))
	if err := os.RemoveAll(j.scratch); err != nil {
		return j, fmt.Errorf("clear scratch: %w", err)
	}
	if err := os.MkdirAll(j.scratch, 0o755); err != nil {
		return j, fmt.Errorf("create scratch: %w", err)
	}
	j.output = filepath.Join(j.scratch, filepath.Base(j.output))
	if phase == PhaseResearch {
		if err := mirrorFile(j.progress, j.output); err != nil {
			return j, fmt.Errorf("copy progress to scratch: %w", err)
		}
	}
	return j, nil
}

// mirrorFile makes to what from is: the same bytes, or absent.
func mirrorFile(from, to string) error {
	data, err := os.ReadFile(from)
	if errors.Is(err, os.ErrNotExist) {
		return removeIfExists(to)
	}
	if err != nil {
		return err
	}
	return writeFile(to, data)
}

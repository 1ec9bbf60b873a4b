package phases

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/phases/layout"
)

// synthesize is the SYNTHESIZE phase: the agent writes the report; rgit
// adds the methodology. If every agent fails, rgit compiles the progress
// files itself so the session still ends with a report.
func (r *run) synthesize(ctx context.Context) error {
	if r.state.Council != nil {
		return r.councilSynthesize(ctx)
	}
	if err := r.checkResearched(); err != nil {
		return err
	}
	start := r.clock.Now()
	out := r.lay.Report()
	brief, files := r.finalBrief()
	vars := map[string]string{"progress_files": files, "exhausted_topics": mdList(r.state.Exhausted)}
	c := call{phase: PhaseSynthesize, template: "synthesize.md", role: RoleResearch, output: out, vars: vars, brief: brief, textIsOutput: true,
		reset: func() error { return removeIfExists(out) }}
	seen := r.knownSources()
	c.gate = func(agents.Result) error {
		data, err := os.ReadFile(out)
		if err != nil {
			return fmt.Errorf("synthesize phase wrote no report.md")
		}
		return checkReport(seen.document(data).Sections, reportSections)
	}
	c.seen, c.cite = seen, citeGate(out, seen)
	return r.landSynthesis(ctx, r.calls.run(ctx, c, r.inputs(c.role)), synthesis{out: out, start: start, seen: c.seen,
		summary: "synthesize: report for " + r.state.OriginalTopic, from: "the progress files", compile: r.compiledReport})
}

// synthesis says how a SYNTHESIZE call's result lands: where the report
// is, the commit's summary, and rgit's own report (compiled from what)
// for when every agent failed.
type synthesis struct {
	out, summary, from string
	compile            func() []byte
	start              time.Time
	seen               *sourceSet // the records and the call's reads
}

// landSynthesis applies a SYNTHESIZE call: the agent's report, or rgit's
// compiled one when the call was exhausted, gets the methodology and is
// committed, and the final review is next.
func (r *run) landSynthesis(ctx context.Context, res callResult, s synthesis) error {
	o, err := r.absorb(PhaseSynthesize, res)
	if errors.Is(err, errExhausted) {
		r.warn(fmt.Sprintf("synthesis failed on every agent; compiling the report from %s (%v)", s.from, err))
		if err := writeFile(s.out, s.compile()); err != nil {
			return fmt.Errorf("write report: %w", err)
		}
	} else if err != nil {
		return err
	}
	if err := r.tallyCitations(s.out, s.seen); err != nil {
		return err
	}
	if err := r.addMethodology(s.out); err != nil {
		return err
	}
	r.state.Stage = StageFinalReview
	hash, err := r.commit(ctx, record{phase: PhaseSynthesize, summary: s.summary,
		agent: o.agent, model: o.model, usage: o.usage, duration: o.elapsed})
	if err != nil {
		return err
	}
	r.done(PhaseSynthesize, "", o, hash, s.start)
	return nil
}

// finalReview is the final REVIEW phase over the report.
func (r *run) finalReview(ctx context.Context) error {
	start := r.clock.Now()
	out := r.lay.File(layout.ReviewJSON)
	_ = removeIfExists(out)
	brief, files := r.finalBrief()
	brief.Gaps = nil
	vars := map[string]string{"progress_files": files, "exhausted_topics": mdList(r.state.Exhausted)}
	var v Decision
	c := call{phase: PhaseFinalReview, template: "final_review.md", role: RoleReview, output: out, vars: vars, brief: brief,
		reset: func() error { return removeIfExists(out) }, gate: decisionGate(out, &v)}
	o, err := r.absorb(c.phase, r.calls.run(ctx, c, r.inputs(c.role)))
	_ = removeIfExists(out)
	if errors.Is(err, errExhausted) {
		r.warn(fmt.Sprintf("final review failed on every agent; keeping the report as synthesized (%v)", err))
		v = Decision{Verdict: decisionAccept, Summary: "Final review unavailable: every agent failed."}
	} else if err != nil {
		return err
	}
	if err := r.writeReview(v, "report", false); err != nil {
		return err
	}
	verdict := VerdictAccepted
	r.state.Stage = StageComplete
	if !v.Accepted() {
		verdict = VerdictRejected
		r.state.FinalGaps = v.Gaps
		r.state.Stage = StageRevise
	}
	r.verdict = lastVerdict{v: verdict, gaps: len(v.Gaps)}
	hash, err := r.commit(ctx, record{phase: PhaseFinalReview, verdict: verdict, summary: "final-review: report " + string(verdict),
		body: v.body(), agent: o.agent, model: o.model, usage: o.usage, duration: o.elapsed})
	if err != nil {
		return err
	}
	r.done(PhaseFinalReview, "", o, hash, start)
	return nil
}

// revise is the REVISE phase: targeted edits answering the final review.
func (r *run) revise(ctx context.Context) error {
	start := r.clock.Now()
	out := r.lay.Report()
	brief, files := r.finalBrief()
	vars := map[string]string{"progress_files": files, "review_gaps": mdList(r.state.FinalGaps),
		"exhausted_topics": mdList(r.state.Exhausted)}
	before, _ := os.ReadFile(out)
	c := call{phase: PhaseRevise, template: "revise.md", role: RoleResearch, output: out, vars: vars, brief: brief, textIsOutput: true,
		reset: func() error { return writeFile(out, before) }}
	seen := r.knownSources()
	c.gate = func(agents.Result) error {
		data, err := os.ReadFile(out)
		if err != nil {
			return fmt.Errorf("revise phase removed report.md")
		}
		return checkReport(seen.document(data).Sections, reportSections)
	}
	c.seen, c.cite = seen, citeGate(out, seen)
	o, err := r.absorb(c.phase, r.calls.run(ctx, c, r.inputs(c.role)))
	if errors.Is(err, errExhausted) {
		r.warn(fmt.Sprintf("revision failed on every agent; keeping the report as reviewed (%v)", err))
		if err := writeFile(out, before); err != nil {
			return fmt.Errorf("restore report: %w", err)
		}
	} else if err != nil {
		return err
	}
	if err := r.tallyCitations(out, c.seen); err != nil {
		return err
	}
	if err := r.addMethodology(out); err != nil {
		return err
	}
	if err := r.writeReview(Decision{Verdict: decisionAccept, Summary: "Revised to answer the final review."}, "report", false); err != nil {
		return err
	}
	r.state.Stage = StageComplete
	hash, err := r.commit(ctx, record{phase: PhaseRevise, summary: "revise: report answers the final review",
		body: "Gaps addressed:\n" + mdList(r.state.FinalGaps), agent: o.agent, model: o.model, usage: o.usage, duration: o.elapsed})
	if err != nil {
		return err
	}
	r.done(PhaseRevise, "", o, hash, start)
	return nil
}

// compiledReport is rgit's own report when no agent could synthesize one.
func (r *run) compiledReport() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n## Executive Summary\n\nThis report was compiled by rgit from the per-topic research notes because no agent could synthesize it.\n\n## Findings\n\n", r.state.OriginalTopic)
	var sources []string
	for _, t := range r.plan.Topics {
		fmt.Fprintf(&b, "%s %s\n\n", strings.Repeat("#", min(3+t.Depth, 6)), t.Name)
		data, err := os.ReadFile(r.progressPath(t))
		if err != nil {
			b.WriteString("No notes were recorded.\n\n")
			continue
		}
		secs := sections(data)
		if f, ok := findSection(secs, "findings"); ok {
			b.WriteString(strings.TrimSpace(string(f)) + "\n\n")
		}
		if s, ok := findSection(secs, "sources"); ok {
			for _, line := range strings.Split(string(s), "\n") {
				if l := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "-*0123456789.")); l != "" && !slices.Contains(sources, l) {
					sources = append(sources, l)
				}
			}
		}
	}
	b.WriteString("## Sources\n\n")
	for i, s := range sources {
		fmt.Fprintf(&b, "%d. %s\n", i+1, s)
	}
	return []byte(b.String())
}

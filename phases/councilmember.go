package phases

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/phases/layout"
)

// researchComplete is the line a member ends its report with once it has
// nothing productive left to research (seed 000).
const researchComplete = "<!-- RESEARCH_COMPLETE -->"

// memberRun is one member's work in one phase of the council: it owns
// the member's directory and branch, and shares nothing writable with the
// other members' runs but the reporter (which is locked).
type memberRun struct {
	m       CouncilMember
	rec     MemberRecord
	commits *memberCommitter
	calls   *callRunner
	in      callInputs // the session's inputs: vars, timeouts, fallback chain tail
	c       *CouncilState
	rep     Reporter
	lay     layout.Layout
	failed  error         // this phase's failure: the member is left out
	rankErr error         // its peer review failed: it stays in, unranked by it
	spend   *councilSpend // the council's budget; nil when it has none
	stopped bool          // the budget ended its research: it is merged as it stands
}

// chain is the member's agent and then the session's fallback agents.
func (mr *memberRun) inputs(sessions map[string]string) callInputs {
	in := mr.in
	in.chain = append([]string{mr.m.Spec}, in.chain...)
	in.sessions = map[string]string{} // the runner adds the conversations it starts
	for k, v := range sessions {
		in.sessions[k] = v
	}
	in.iteration, in.max = mr.rec.Iteration, mr.c.MemberIterations
	in.notes = mr.notes()
	return in
}

func (mr *memberRun) notes() string {
	data, _ := os.ReadFile(mr.lay.MemberFile(mr.m.Name, layout.RecoveryNotesFile))
	return string(data)
}

// progress reports one step of the member with the seed's wording.
func (mr *memberRun) progress(kind EventKind, phase Phase, msg string) {
	mr.rep.Report(Event{Kind: kind, Phase: phase, Topic: mr.m.Name, Iteration: mr.rec.Iteration, Max: mr.c.MemberIterations,
		Agent: mr.m.Spec, Message: msg})
}

// absorb keeps a call's recovery notes in the member's directory and its
// usage in the record.
func (mr *memberRun) absorb(res callResult) {
	mr.rec.account(res)
	mr.spend.update(mr.m.Name, mr.rec.Usage)
	if res.notes != "" {
		_ = appendFile(mr.lay.MemberFile(mr.m.Name, layout.RecoveryNotesFile), []byte(res.notes))
	}
}

// research runs the member's research loop from where its branch stands:
// one commit per iteration, until the report ends with the marker or the
// cap is reached. A finished member returns at once.
func (mr *memberRun) research(ctx context.Context) error {
	if mr.rec.Complete {
		return nil // not counted among the council's researching members
	}
	defer mr.spend.finished()
	report := mr.lay.MemberFile(mr.m.Name, layout.MemberReportFile)
	for !mr.rec.Complete {
		if err := ctx.Err(); err != nil {
			return err
		}
		i := mr.rec.Iteration + 1
		if kind := mr.spend.room(); kind != "" && i > 1 {
			mr.budgetStopped(kind)
			return nil
		}
		msg := fmt.Sprintf("Phase 1: %s iteration %d/%d", mr.m.Name, i, mr.c.MemberIterations)
		if i == 1 {
			msg = fmt.Sprintf("Phase 1: %s research starting (iteration 1/%d)", mr.m.Name, mr.c.MemberIterations)
		}
		mr.progress(EventPhaseStart, PhaseMemberResearch, msg)
		prior, priorErr := os.ReadFile(report)
		vars := map[string]string{"member": mr.m.Name, "member_iteration": fmt.Sprint(i),
			"member_iterations": fmt.Sprint(mr.c.MemberIterations), "member_report": report}
		if len(mr.rec.Sessions) == 0 && priorErr == nil {
			// No conversation to resume: the report itself is the context.
			vars["current_report"] = "Your report so far:\n\n````markdown\n" + tail(string(prior), 60000) + "\n````"
		}
		c := call{phase: PhaseMemberResearch, template: "council_research.md", role: RoleResearch, topic: mr.m.Name,
			output: report, vars: vars, textIsOutput: true,
			brief: agents.Brief{Question: mr.in.vars["original_topic"], Council: &agents.Council{Member: mr.m.Name, Iteration: i,
				MaxIterations: mr.c.MemberIterations, Report: report}},
			reset: func() error {
				if priorErr != nil {
					return removeIfExists(report)
				}
				return writeFile(report, prior)
			}}
		c.gate = func(agents.Result) error { return checkMemberReport(report) }
		c.seen = newSourceSet()
		res := mr.calls.run(ctx, c, mr.inputs(mr.rec.Sessions))
		mr.absorb(res)
		if err := mr.keepReads(c.seen); err != nil {
			return err
		}
		if res.err != nil {
			return res.err
		}
		for _, a := range res.attempts {
			if a.sessionID != "" {
				if mr.rec.Sessions == nil {
					mr.rec.Sessions = map[string]string{}
				}
				mr.rec.Sessions[a.sessionKey] = a.sessionID
			}
		}
		data, _ := os.ReadFile(report)
		mr.rec.Iteration = i
		mr.rec.Marker = bytes.HasSuffix(bytes.TrimSpace(data), []byte(researchComplete))
		mr.rec.Complete = mr.rec.Marker || i >= mr.c.MemberIterations
		hash, err := mr.commits.write(ctx, &mr.rec, step{phase: PhaseMemberResearch, out: res.out,
			summary: fmt.Sprintf("member-research: %s iteration %d of %d", mr.m.Name, i, mr.c.MemberIterations)})
		if err != nil {
			return err
		}
		done := fmt.Sprintf("Phase 1: %s iteration %d/%d committed %s", mr.m.Name, i, mr.c.MemberIterations, orNone(hash))
		if mr.rec.Complete {
			why := "marked its report complete"
			if !mr.rec.Marker {
				why = "reached the iteration cap"
			}
			done = fmt.Sprintf("Phase 1: %s research complete after %d iterations (%s)", mr.m.Name, i, why)
		}
		mr.progress(EventPhaseDone, PhaseMemberResearch, done)
	}
	return nil
}

// refine is the cross-pollination step: the member reads its report and
// the others' (fresh context) and writes refined.md; one commit.
func (mr *memberRun) refine(ctx context.Context, others []string) error {
	if mr.rec.Refined {
		return nil
	}
	own := mr.lay.MemberFile(mr.m.Name, layout.MemberReportFile)
	out := mr.lay.MemberFile(mr.m.Name, layout.MemberRefinedFile)
	var list strings.Builder
	var reports []agents.MemberReport
	for _, o := range others {
		p := mr.lay.MemberFile(o, layout.MemberReportFile)
		fmt.Fprintf(&list, "- %s: %s\n", o, p)
		reports = append(reports, agents.MemberReport{Name: o, Path: p})
	}
	mr.progress(EventPhaseStart, agents.PhaseRefine, fmt.Sprintf("Phase 2: %s refinement starting (reads %d other reports)", mr.m.Name, len(others)))
	c := call{phase: agents.PhaseRefine, template: "council_refine.md", role: RoleResearch, topic: mr.m.Name, output: out,
		vars:  map[string]string{"member": mr.m.Name, "member_report": own, "other_reports": strings.TrimRight(list.String(), "\n")},
		brief: agents.Brief{Question: mr.in.vars["original_topic"], Council: &agents.Council{Member: mr.m.Name, Report: own, Reports: reports}},
		reset: func() error { return removeIfExists(out) }, textIsOutput: true}
	c.gate = func(agents.Result) error { return checkMemberReport(out) }
	c.seen = newSourceSet()
	res := mr.calls.run(ctx, c, mr.inputs(nil))
	mr.absorb(res)
	if err := mr.keepReads(c.seen); err != nil {
		return err
	}
	if res.err != nil {
		return res.err
	}
	mr.rec.Refined = true
	hash, err := mr.commits.write(ctx, &mr.rec, step{phase: agents.PhaseRefine, out: res.out,
		summary: fmt.Sprintf("refine: %s after reading %d other reports", mr.m.Name, len(others))})
	if err != nil {
		return err
	}
	mr.progress(EventPhaseDone, agents.PhaseRefine, fmt.Sprintf("Phase 2: %s refinement committed %s", mr.m.Name, orNone(hash)))
	return nil
}

// checkMemberReport is a member report's gate: findings with content, and
// sources.
func checkMemberReport(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("wrote no %s", path)
	}
	secs := sections(data)
	f, ok := findSection(secs, "key findings", "findings")
	if !ok || len(bytes.TrimSpace(f)) == 0 {
		return fmt.Errorf("report has no \"## Key Findings\" section with content")
	}
	if _, ok := findSection(secs, "sources", "references"); !ok {
		return fmt.Errorf("report has no \"## Sources\" section")
	}
	return nil
}

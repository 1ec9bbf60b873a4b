package mock

import (
	"fmt"
	"path/filepath"

	"github.com/rgit-dev/rgit/agents"
)

// output is what one phase produced: the file body (written to
// Task.Output), the final message, and how many bytes of input files the
// phase read (for token counts).
type output struct {
	body, text string
	read       int
	sources    []agents.Source // the pages the phase "fetched"
}

// work runs a phase that is not failing.
func work(task agents.Task) (agents.Result, error) {
	verdict := task.Phase == agents.PhaseReview || task.Phase == agents.PhaseFinalReview || task.Phase == agents.PhaseRank
	if task.Output == "" && !verdict || task.Output != "" && !filepath.IsAbs(task.Output) {
		return agents.Result{ExitCode: 2}, &agents.CallError{Backend: "mock", Exit: 2,
			Msg: fmt.Sprintf("%s: Task.Output %q is not an absolute path", task.Phase, task.Output)}
	}
	var out output
	var err error
	switch task.Phase {
	case agents.PhasePlan:
		out = plan(task.Brief)
	case agents.PhaseResearch:
		out = research(task.Brief)
	case agents.PhaseReview:
		out = reviewTopic(task.Brief)
	case agents.PhaseFinalReview:
		out = reviewReport(task.Brief)
	case agents.PhaseSynthesize:
		if task.Brief.Council != nil {
			out, err = councilSynthesis(task.Brief)
		} else {
			out = synthesize(task.Brief)
		}
	case agents.PhaseMemberResearch:
		if task.Brief.Council == nil {
			return agents.Result{ExitCode: 2}, &agents.CallError{Backend: "mock", Exit: 2, Msg: "member-research without a council brief"}
		}
		out = memberResearch(task.Brief)
	case agents.PhaseRefine:
		if task.Brief.Council != nil {
			out, err = refineReport(task.Brief)
		} else {
			out, err = revise(task.Output, task.Brief)
		}
	case agents.PhaseRank:
		if task.Brief.Council == nil {
			return agents.Result{ExitCode: 2}, &agents.CallError{Backend: "mock", Exit: 2, Msg: "rank without a council brief"}
		}
		out, err = rankReports(task.Brief)
	case agents.PhaseRevise:
		out, err = revise(task.Output, task.Brief)
	case agents.PhaseRecovery:
		out = recovery(task.Brief)
	default:
		return agents.Result{ExitCode: 2}, &agents.CallError{Backend: "mock", Exit: 2,
			Msg: fmt.Sprintf("unknown phase %q", task.Phase)}
	}
	if err != nil {
		return agents.Result{ExitCode: 1}, &agents.CallError{Backend: "mock", Exit: 1, Msg: err.Error()}
	}
	return deliver(task, out)
}

// deliver writes a phase's output file and reports its result, as an
// agent CLI would.
func deliver(task agents.Task, out output) (agents.Result, error) {
	res := agents.Result{
		Text:      out.text,
		SessionID: sessionID(task),
		Usage:     usage(task, out.read, len(out.body)+len(out.text)),
		Sources:   out.sources,
	}
	if task.Output != "" {
		if err := writeOutput(task.Output, out.body); err != nil {
			return agents.Result{ExitCode: 1}, &agents.CallError{Backend: "mock", Exit: 1, Msg: err.Error()}
		}
		res.Files = relFiles(task)
	}
	return res, nil
}

// sessionID names the conversation of one phase on one topic, so a retry
// that resumes it gets the same id back.
func sessionID(task agents.Task) string {
	if task.SessionID != "" {
		return task.SessionID
	}
	return fmt.Sprintf("mock-%016x", seedFor(task.Brief.Question, task.Brief.Topic, string(task.Phase)).next())
}

// usage estimates tokens at four bytes each, as tokenizers roughly do
// for English: the prompt, the files read and a fixed system prompt in,
// the text written out. A resumed session reads the system prompt from
// cache.
func usage(task agents.Task, read, written int) agents.Usage {
	const system = 1200
	u := agents.Usage{
		InputTokens:  int64(system + (len(task.Prompt)+read+3)/4),
		OutputTokens: int64(40 + (written+3)/4),
	}
	if task.SessionID != "" {
		u.CachedTokens = system
	}
	return u
}

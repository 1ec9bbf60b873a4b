package mcpserver

import (
	"fmt"
	"strings"
)

// The text each tool answers with: what a model reads (the structured
// content carries the same fields). Short lines, the facts first, and the
// next call to make.

func startedText(verb string, st Started) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s session %s on branch %s; it runs in the background.\n", verb, st.Name, st.Branch)
	if st.ProgressLog != "" {
		fmt.Fprintf(&b, "follow it: tail -f %s\n", st.ProgressLog)
	}
	fmt.Fprintf(&b, "next: call research_status with name %q and wait_seconds 45 until its state is done, failed or stopped; then research_report.\n", st.Name)
	return b.String()
}

func statusText(v StatusView) string {
	var b strings.Builder
	fmt.Fprintf(&b, "session %s (%s): %s\n", v.Name, v.Branch, v.State)
	fmt.Fprintf(&b, "topic: %s\n", v.Topic)
	fmt.Fprintf(&b, "phase %s, iteration %d of %d, %d of %d topics complete\n", dash(v.Phase), v.Iteration, v.MaxIterations, v.Topics.Complete, v.Topics.Total)
	if len(v.Members) > 0 {
		fmt.Fprintf(&b, "members: %s\n", strings.Join(v.Members, ", "))
	}
	for _, u := range v.Usage {
		fmt.Fprintf(&b, "usage %s: %d calls, %d in, %d out tokens, $%.4f, %.0fs\n", u.Backend, u.Calls, u.InputTokens, u.OutputTokens, u.CostUSD, u.Seconds)
	}
	for _, e := range v.Events {
		fmt.Fprintf(&b, "event %s %s\n", e.Time.UTC().Format("15:04:05"), e.Text)
	}
	if v.ExitStatus != nil {
		fmt.Fprintf(&b, "exit status %d\n", *v.ExitStatus)
	}
	if v.Error != "" {
		fmt.Fprintf(&b, "error: %s\n", v.Error)
	}
	if v.ProgressLog != "" {
		fmt.Fprintf(&b, "progress log: %s\n", v.ProgressLog)
	}
	switch v.State {
	case Running:
		b.WriteString("next: call research_status again (wait_seconds 45) until the state is done, failed or stopped.\n")
	case Done:
		b.WriteString("next: call research_report for the report.\n")
	default:
		b.WriteString("it has no report; research_resume continues it from its last phase.\n")
	}
	return b.String()
}

func reportText(r ReportView) string {
	if !r.Finished {
		// A stopped session never ends by itself: it needs a resume.
		next := "call research_status until it is done"
		if r.Status.State == Stopped {
			next = "research_resume continues it from its last phase"
		}
		return fmt.Sprintf("not finished: session %s is %s (phase %s, %d of %d topics complete); %s.\n",
			r.Name, r.Status.State, dash(r.Status.Phase), r.Status.Topics.Complete, r.Status.Topics.Total, next)
	}
	return fmt.Sprintf("report of session %s: %s on branch %s\n\n%s", r.Name, r.Path, r.Branch, r.Markdown)
}

func listText(items []ListItem) string {
	if len(items) == 0 {
		return "no research sessions here; start one with research_start.\n"
	}
	var b strings.Builder
	for _, s := range items {
		fmt.Fprintf(&b, "%s: %s, phase %s, %d of %d topics, iteration %d of %d; %s\n", s.Name, s.State, dash(s.Phase),
			s.Topics.Complete, s.Topics.Total, s.Iteration, s.MaxIterations, s.Topic)
	}
	return b.String()
}

// failedError is research_report's answer for a failed session.
func failedError(v StatusView) error {
	why := v.Error
	if why == "" {
		why = "no error recorded"
	}
	return &outcomeError{msg: fmt.Sprintf("session %s failed, so it has no report: %s", v.Name, why),
		hint: "research_status shows where it stopped; research_resume continues it"}
}

type outcomeError struct{ msg, hint string }

func (e *outcomeError) Error() string { return e.msg }
func (e *outcomeError) Hint() string  { return e.hint }

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Package agents runs research phases on AI agents: the Agent interface,
// its backends (mock, local, claude, codex, gemini, opencode, openai) and
// the runner that adds timeouts, retries and the fallback chain.
//
// The phase contract every backend honours (the loop's gates check it):
//
//   - PhasePlan: write Task.Output (research_plan.md) in the research_plan.md
//     format with at most Brief.Breadth topics of depth 0.
//   - PhaseResearch: write Task.Output (progress/<slug>.md) with the sections
//     "## Findings", "## Sources", "## Knowledge Gaps" and, when
//     Brief.CanSubdivide, "## Subtopics": one list item per proposal,
//     "- Name: description", with nested items as acceptance criteria.
//   - PhaseReview and PhaseFinalReview: return a verdict, either as the final
//     message or written to Task.Output (review.json), as one JSON object
//     {"verdict": "accept"|"reject", "summary": "...", "gaps": ["..."]}.
//   - PhaseSynthesize: write Task.Output (reports/<name>/report.md) with
//     "## Executive Summary", "## Findings" (by topic hierarchy) and
//     "## Sources" (numbered citations).
//   - PhaseRevise: edit Task.Output (the report) in place to answer
//     Brief.Gaps, adding no new research.
//
// A backend that cannot write files may instead return the whole output as
// Result.Text; the loop then writes it to Task.Output itself.
package agents

import (
	"context"
	"time"
)

// Phase names one agent call's purpose. The values appear in commit trailers.
type Phase string

// The phases of the research loop.
const (
	PhasePlan        Phase = "plan"
	PhaseResearch    Phase = "research"
	PhaseReview      Phase = "review"
	PhaseSynthesize  Phase = "synthesize"
	PhaseFinalReview Phase = "final-review"
	PhaseRevise      Phase = "revise"
	PhaseRefine      Phase = "refine"
	PhaseRecovery    Phase = "recovery"
	// The council's own phases (see Council).
	PhaseMemberResearch Phase = "member-research"
	PhaseRank           Phase = "rank"
)

// Agent runs one phase. Implementations must honour ctx cancellation (a
// subprocess is killed with its whole process group) and must not print.
type Agent interface {
	// Name is the backend name, for example "claude" or "local".
	Name() string
	Run(ctx context.Context, task Task) (Result, error)
}

// Task is one agent call.
type Task struct {
	Phase  Phase
	Prompt string // the rendered template, complete instructions for an LLM
	// Dir is the absolute session workspace (.research/<name>); agents run
	// with it as their working directory and may write only inside it and
	// to Output.
	Dir string
	// Root is the absolute repository root (the default corpus).
	Root string
	// Output is the absolute path of the file the phase must produce.
	Output  string
	Model   string        // the model part of backend:model; "" means the backend's default
	Timeout time.Duration // per call; 0 means none
	// SessionID resumes an earlier agent conversation (a retry or a deeper
	// pass on the same topic); "" starts a fresh one.
	SessionID string
	// Attempt counts retries of this phase: 0 on the first call.
	Attempt int
	// Brief is the structured form of the prompt for backends that do not
	// read prose (mock, local).
	Brief Brief
}

// Brief carries what a phase needs, and only that, as data.
type Brief struct {
	Question     string // the session's original topic or question
	Breadth      int
	Depth        int
	Topic        string   // the topic under research or review; "" for plan and final phases
	TopicDepth   int      // depth of Topic in the plan
	Description  string   // Topic's description
	Criteria     []string // Topic's acceptance criteria
	Ancestors    []string // names from the root down to Topic's parent
	Gaps         []string // the last review's gaps for this topic (or report)
	Existing     []string // every topic name in the plan, to avoid duplicates
	CanSubdivide bool     // whether Topic may get subtopics (depth limit)
	ReviewPath   string   // absolute path of the file under review
	Corpus       []string // directories the local backend researches
	// NextSearchTopic and URLToSearch are the last review's steer for
	// Topic's next research pass (its loop decision); "" when none.
	NextSearchTopic, URLToSearch string
	// Topics lists the plan in order for synthesis: one entry per topic.
	Topics []TopicRef
	// Council is set for a council's phases; nil otherwise.
	Council *Council
}

// Council is what one phase of a council sees: several members research
// the whole question, each on its own report, then read each other.
//
//   - PhaseMemberResearch: improve Council.Report (Task.Output) with the
//     sections "## Executive Summary", "## Key Findings", "## Methodology",
//     "## Open Questions", "## Sources"; end it with the line
//     "<!-- RESEARCH_COMPLETE -->" once nothing productive is left.
//   - PhaseRefine: write a refined report (Task.Output, same sections) from
//     Council.Report and the other members' Council.Reports.
//   - PhaseRank: rank Council.Reports (labelled "Report A", ...; names
//     removed) as JSON {"ranking": [{"report": "Report A", "reason": "..."}]},
//     best first, every label once, as the final message or in Task.Output.
//   - PhaseSynthesize with Council set: write the council report from the
//     refined Council.Reports with the eight sections of the council
//     template.
type Council struct {
	Member        string         // the member this call is for ("" for synthesis)
	Iteration     int            // member-research: this iteration, from 1
	MaxIterations int            // member-research: the cap
	Report        string         // the member's own report (absolute path)
	Reports       []MemberReport // the other reports this phase reads
	Ranking       string         // synthesis: the aggregate peer ranking, a markdown list
	Failed        []string       // synthesis: members left out, with why
}

// MemberReport is one report a council phase reads: Name is the member's
// name, or a label such as "Report A" when the phase must not know it.
type MemberReport struct {
	Name string
	Path string
}

// TopicRef is one topic as the final phases see it.
type TopicRef struct {
	Name      string
	Depth     int
	Parent    string
	Status    string
	Progress  string // absolute path of its progress file ("" if none)
	Exhausted bool
}

// Result is what an agent call produced.
type Result struct {
	Text      string   // the final message
	Files     []string // files written, relative to Task.Dir, when known
	SessionID string   // the backend's session or thread id, for resuming
	Model     string   // the model the backend says it ran ("" when it does not say)
	Usage     Usage
	ExitCode  int
	// Sources are the pages the agent read with its own tools during the
	// call, in the order the backend reported them (see Source).
	Sources []Source
}

// Usage is what one call cost.
type Usage struct {
	InputTokens  int64
	OutputTokens int64
	CachedTokens int64
	CostUSD      float64 // 0 when the backend does not report it
	Duration     time.Duration
}

// Add accumulates o into u.
func (u *Usage) Add(o Usage) {
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.CachedTokens += o.CachedTokens
	u.CostUSD += o.CostUSD
	u.Duration += o.Duration
}

// Tokens is input plus output tokens.
func (u Usage) Tokens() int64 { return u.InputTokens + u.OutputTokens }

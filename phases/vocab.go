package phases

import (
	"slices"

	"github.com/rgit-dev/rgit/agents"
)

// This file is rgit's vocabulary: every word that is written to git or to
// state.json and read back. A value read from disk that is not listed here
// is an error naming the file (or commit) it came from.

// Phase names what a session commit records: one agent call's purpose
// (agents.Phase) or one of rgit's own steps. The values appear in the
// Rgit-Phase trailer, state.json and progress.md.
type Phase = agents.Phase

// The phases a session commits, in the order a session meets them.
const (
	PhaseStart       Phase = "start" // the session's first commit, before planning
	PhasePlan              = agents.PhasePlan
	PhaseResearch          = agents.PhaseResearch
	PhaseReview            = agents.PhaseReview
	PhaseSynthesize        = agents.PhaseSynthesize
	PhaseFinalReview       = agents.PhaseFinalReview
	PhaseRevise            = agents.PhaseRevise
	PhaseComplete    Phase = "complete" // drops the intermediate files
	PhaseMerge       Phase = "merge"    // the merge commit on the target branch
	PhaseFork        Phase = "fork"     // a fork's first commit, on top of its source's (rgit fork)
	// The council's (phases/council*.go).
	PhaseMemberResearch       = agents.PhaseMemberResearch // one research iteration of a member
	PhaseRank                 = agents.PhaseRank           // a member's anonymized peer ranking
	PhaseCouncilMerge   Phase = "council-merge"            // the octopus merge of the member branches
)

var knownPhases = []Phase{PhaseStart, PhasePlan, PhaseResearch, PhaseReview, PhaseSynthesize, PhaseFinalReview,
	PhaseRevise, PhaseComplete, PhaseMerge, agents.PhaseRefine, agents.PhaseRecovery,
	PhaseFork, PhaseMemberResearch, PhaseRank, PhaseCouncilMerge}

// Stage is where the loop is; state.json records it.
type Stage string

// The stages, in order.
const (
	StagePlan        Stage = "plan"
	StageResearch    Stage = "research"
	StageSynthesize  Stage = "synthesize"
	StageFinalReview Stage = "final-review"
	StageRevise      Stage = "revise"
	StageComplete    Stage = "complete"
	StageCouncil     Stage = "council" // members research, refine and rank, then the octopus merge
)

// StageUnreadable is shown by `rgit list` for a session whose state cannot
// be read. It is never written.
const StageUnreadable Stage = "unreadable"

var knownStages = []Stage{StagePlan, StageResearch, StageSynthesize, StageFinalReview, StageRevise, StageComplete, StageCouncil}

// Role says which of the session's agents a phase uses.
type Role string

// The roles; the values are part of state.json's agent_sessions keys.
const (
	RoleResearch Role = "model"  // plan, research, synthesize, revise: --model
	RoleReview   Role = "review" // review, final-review: --review-model
)

// Verdict is how a reviewed phase ended, as the Rgit-Verdict trailer says.
type Verdict string

// The verdicts.
const (
	VerdictAccepted  Verdict = "accepted"
	VerdictRejected  Verdict = "rejected"
	VerdictExhausted Verdict = "exhausted" // every attempt on every agent failed (#RETRY_EXHAUSTED)
)

var knownVerdicts = []Verdict{VerdictAccepted, VerdictRejected, VerdictExhausted}

// The words a review's JSON decision uses (see Decision).
const (
	decisionAccept = "accept"
	decisionReject = "reject"
)

// ExhaustedTag marks a topic abandoned after every retry, in its progress
// file and in the report's methodology.
const ExhaustedTag = "#RETRY_EXHAUSTED"

// TrailerKey is a git trailer rgit writes on every phase commit.
type TrailerKey string

// The trailers, in the order a commit carries them.
const (
	TrailerPhase     TrailerKey = "Rgit-Phase"
	TrailerIteration TrailerKey = "Rgit-Iteration"
	TrailerTopic     TrailerKey = "Rgit-Topic"
	TrailerAgent     TrailerKey = "Rgit-Agent"
	TrailerModel     TrailerKey = "Rgit-Model"
	TrailerVerdict   TrailerKey = "Rgit-Verdict"
	TrailerDuration  TrailerKey = "Rgit-Duration"
	TrailerTokens    TrailerKey = "Rgit-Tokens"
	TrailerCost      TrailerKey = "Rgit-Cost"
	TrailerRun       TrailerKey = "Rgit-Run"
	TrailerForkOf    TrailerKey = "Rgit-Fork-Of" // a fork commit: the session forked
	TrailerMember    TrailerKey = "Rgit-Member"  // a council member's commits
)

// unknownWord is the error for a value from disk outside the vocabulary.
func unknownWord(where, field, value string) error {
	return badInput("it was written by a newer or foreign tool: upgrade rgit, or start a new session",
		"%s: unknown %s %q", where, field, value)
}

// checkWord checks a value read from disk against its vocabulary.
func checkWord[T ~string](where, field string, v T, known []T) error {
	if !slices.Contains(known, v) {
		return unknownWord(where, field, string(v))
	}
	return nil
}

package prompts

import "sort"

// Names lists the template files of .research/templates/, in the
// order the loop uses them.
var Names = []string{
	"initial_plan.md",
	"research.md",
	"review.md",
	"synthesize.md",
	"final_review.md",
	"revise.md",
	"recovery.md",
	"phase_recovery.md",
	"council_research.md",
	"council_refine.md",
	"council_rank.md",
	"council_synthesize.md",
}

// variables documents every name a template may use. The loop fills the
// ones a phase needs and leaves the rest empty, so a template that uses a
// variable its phase does not provide renders "" there, never an error.
var variables = map[string]string{
	"original_topic":      "the session's topic or question, as the user gave it",
	"session_name":        "the session name (--name)",
	"breadth":             "the most subtopics per topic (and depth-0 topics)",
	"depth":               "the deepest topic depth allowed (depth-0 topics are the roots)",
	"iteration":           "the current RESEARCH-REVIEW iteration",
	"max_iterations":      "the iteration limit",
	"model":               "the research model, backend:model",
	"review_model":        "the review model, backend:model",
	"timeout":             "seconds before this agent call is killed",
	"workspace":           "absolute path of the session directory .research/<name>",
	"plan_file":           "absolute path of research_plan.md (owned by rgit)",
	"topic":               "the topic under research or review",
	"topic_slug":          "the topic's file name stem: progress/<topic_slug>.md",
	"topic_depth":         "the topic's depth in the tree",
	"topic_description":   "the topic's description",
	"acceptance_criteria": "the topic's acceptance criteria, a markdown list",
	"ancestors":           "the topic's ancestors, root first, with one-line summaries, a markdown list",
	"review_gaps":         "the last review's gaps to address, a markdown list (empty on a first pass)",
	"output_file":         "absolute path of the file this phase must write",
	"subtopic_limit":      "how many subtopics may be proposed; 0 means none (maximum depth)",
	"next_search_topic":   "what the last review of this topic asked to search next (its nextSearchTopic); empty if none",
	"url_to_search":       "a URL the last review of this topic asked to read (its urlToSearch); empty if none",
	"progress_files":      "the topics' progress files in plan order, a markdown list \"- Topic: path\"",
	"report_file":         "absolute path of the report, reports/<name>/report.md",
	"exhausted_topics":    "topics abandoned after repeated failures, a markdown list",
	"attempt":             "the attempt number: 0 on the first call, 1 on the first retry",
	"failed_phase":        "the phase that failed",
	"error":               "why it failed, in rgit's or the agent's words",
	"recovery_notes":      "notes from earlier failed attempts (recovery.notes.md)",
	// The council's.
	"member":            "this council member's name, e.g. claude or mock-alpha",
	"member_iteration":  "the member's research iteration, from 1",
	"member_iterations": "the member's iteration cap (--member-iterations)",
	"member_report":     "absolute path of the member's own report",
	"current_report":    "the member's current report, quoted, when its conversation cannot be resumed (else empty)",
	"other_reports":     "the other members' reports, a markdown list \"- member: path\"",
	"labelled_reports":  "the reports to rank, a markdown list \"- Report A: path\" (names removed)",
	"report_labels":     "the labels of the reports to rank, comma-separated",
	"refined_reports":   "the members' refined reports, a markdown list \"- member: path\"",
	"aggregate_ranking": "the peer ranking: mean rank per member, a markdown list, best first",
	"failed_members":    "members left out after repeated failures, a markdown list",
}

// sortedVariables is Variables' result, computed once.
var sortedVariables = func() []string {
	names := make([]string, 0, len(variables))
	for name := range variables {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}()

// Variables returns every valid variable name, sorted.
func Variables() []string {
	return append([]string(nil), sortedVariables...)
}

// Describe returns the one-line meaning of a variable, or "" for a name
// that is not a variable.
func Describe(name string) string { return variables[name] }

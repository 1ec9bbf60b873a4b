package phases

import (
	"fmt"
	"os"
	"strings"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/phases/plan"
)

// baseVars are the template variables every phase has.
func (r *run) baseVars() map[string]string {
	s := r.state
	return map[string]string{
		"original_topic": s.OriginalTopic,
		"session_name":   r.lay.Name(),
		"breadth":        fmt.Sprint(s.Breadth),
		"depth":          fmt.Sprint(s.Depth),
		"iteration":      fmt.Sprint(s.Iteration),
		"max_iterations": fmt.Sprint(s.MaxIterations),
		"model":          s.Model,
		"review_model":   s.ReviewModel,
		"timeout":        fmt.Sprint(s.Timeout),
		"workspace":      r.lay.Workspace(),
		"plan_file":      r.lay.Plan(),
		"report_file":    r.lay.Report(),
	}
}

func (r *run) progressPath(t *plan.Topic) string {
	return r.lay.Progress(r.slug(t))
}

// slug is a topic's stable file name, kept in state across renames.
func (r *run) slug(t *plan.Topic) string {
	if s, ok := r.state.Slugs[t.Name]; ok {
		return s
	}
	r.state.Slugs = plan.Slugs(r.plan, r.state.Slugs)
	return r.state.Slugs[t.Name]
}

// topicVars and topicBrief carry what a topic's phases need and nothing
// more: the topic, its ancestors' one-line summaries, its criteria and the
// last review's gaps. Prompts therefore do not grow with the tree.
func (r *run) topicVars(t *plan.Topic) map[string]string {
	var anc strings.Builder
	for _, a := range plan.Ancestors(r.plan, t) {
		fmt.Fprintf(&anc, "- %s", a.Name)
		if s := r.state.Summaries[a.Name]; s != "" {
			fmt.Fprintf(&anc, ": %s", s)
		}
		anc.WriteByte('\n')
	}
	limit := 0
	if t.Depth < r.state.Depth {
		limit = r.state.Breadth - len(r.plan.Children(t.Name))
		if limit < 0 {
			limit = 0
		}
	}
	return map[string]string{
		"topic":               t.Name,
		"topic_slug":          r.slug(t),
		"topic_depth":         fmt.Sprint(t.Depth),
		"topic_description":   t.Description,
		"acceptance_criteria": mdList(t.Criteria),
		"ancestors":           strings.TrimRight(anc.String(), "\n"),
		"review_gaps":         mdList(r.state.Gaps[t.Name]),
		"subtopic_limit":      fmt.Sprint(limit),
		"next_search_topic":   r.state.NextSearch[t.Name].Topic,
		"url_to_search":       r.state.NextSearch[t.Name].URL,
	}
}

func (r *run) topicBrief(t *plan.Topic) agents.Brief {
	var anc []string
	for _, a := range plan.Ancestors(r.plan, t) {
		anc = append(anc, a.Name)
	}
	existing := make([]string, 0, len(r.plan.Topics))
	for _, x := range r.plan.Topics {
		existing = append(existing, x.Name)
	}
	return agents.Brief{
		Question: r.state.OriginalTopic, Breadth: r.state.Breadth, Depth: r.state.Depth,
		Topic: t.Name, TopicDepth: t.Depth, Description: t.Description, Criteria: t.Criteria,
		Ancestors: anc, Gaps: r.state.Gaps[t.Name], Existing: existing,
		NextSearchTopic: r.state.NextSearch[t.Name].Topic, URLToSearch: r.state.NextSearch[t.Name].URL,
		CanSubdivide: t.Depth < r.state.Depth && len(r.plan.Children(t.Name)) < r.state.Breadth,
		Corpus:       r.state.Corpus,
	}
}

// finalBrief lists every topic for the final phases.
func (r *run) finalBrief() (agents.Brief, string) {
	b := agents.Brief{Question: r.state.OriginalTopic, Breadth: r.state.Breadth, Depth: r.state.Depth,
		Corpus: r.state.Corpus, Gaps: r.state.FinalGaps, ReviewPath: r.lay.Report()}
	var files strings.Builder
	if r.plan != nil {
		for _, t := range r.plan.Topics {
			ref := agents.TopicRef{Name: t.Name, Depth: t.Depth, Parent: t.Parent, Status: string(t.Status), Exhausted: r.state.isExhausted(t.Name)}
			if p := r.progressPath(t); fileExists(p) {
				ref.Progress = p
				fmt.Fprintf(&files, "- %s: %s\n", t.Name, p)
			}
			b.Topics = append(b.Topics, ref)
		}
	}
	return b, strings.TrimRight(files.String(), "\n")
}

// recoveryNotes is recovery.notes.md as it is now: earlier failures that a
// retry's prompt shows the agent.
func (r *run) recoveryNotes() string {
	notes, _ := os.ReadFile(r.lay.File(layout.RecoveryNotesFile))
	return string(notes)
}

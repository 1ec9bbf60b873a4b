package phases

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/phases/plan"
)

// build reads the source's session files at the fork point and makes the
// fork's: the same workspace under the new name, its state changed as
// asked, and no report (a fork writes its own).
func (f *forker) build() error {
	c := f.src.commits[f.at]
	owner := layout.New(f.store.Root(), f.src.owner[f.at])
	st, err := readStateAt(f.store, c.Hash, owner)
	if err != nil {
		return err
	}
	filesRev := c.Hash
	if st.IsComplete {
		// The completion commit dropped the intermediate files; its parent
		// still has them, and the same state otherwise.
		if f.at+1 >= len(f.src.commits) || f.src.owner[f.at+1] != owner.Name() {
			return fmt.Errorf("fork %s: the completion commit %s has no session commit before it", f.src.branch, short(c.Hash))
		}
		filesRev = f.src.commits[f.at+1].Hash
	}
	paths, err := f.store.ListFiles(filesRev, owner.WorkspaceTree())
	if err != nil {
		return fmt.Errorf("list session files at %s: %w", short(filesRev), err)
	}
	f.files = map[string][]byte{}
	for _, p := range paths {
		rel, ok := owner.WorkspaceRel(p)
		if !ok || rel == layout.StateFile || excludedRel(rel) {
			continue
		}
		data, err := f.store.ReadFile(filesRev, p)
		if err != nil {
			return fmt.Errorf("read %s at %s: %w", p, short(filesRev), err)
		}
		f.files[rel] = data
	}
	if src, ok := f.files[layout.PlanFile]; ok {
		if f.plan, err = plan.Parse(short(filesRev)+":"+owner.PlanTree(), src); err != nil {
			return err
		}
	}
	f.state = st
	if err := f.change(); err != nil {
		return err
	}
	f.files[layout.StateFile] = nil // written last, with the run's token
	if f.plan != nil {
		f.files[layout.PlanFile] = plan.Render(f.plan)
		f.files[layout.ProgressFile] = progressDoc(f.state, f.plan)
	}
	return nil
}

// excludedRel says whether a workspace path is never committed (the lock,
// the archive, scratch directories); a tree should not hold one, but a
// fork copies nothing it would not commit.
func excludedRel(rel string) bool {
	first, _, _ := strings.Cut(rel, "/")
	return slices.Contains([]string{layout.LockFile, layout.LockFile + ".tmp", layout.ArchiveDir, layout.ScratchDir}, first)
}

// change applies the fork's settings to the source's state and plan.
func (f *forker) change() error {
	st, cfg := f.state, f.cfg
	note := func(format string, args ...any) { f.changes = append(f.changes, fmt.Sprintf(format, args...)) }
	st.Name = cfg.Name
	if cfg.Question != "" && cfg.Question != st.OriginalTopic {
		note("Question: %s", cfg.Question)
		st.OriginalTopic = cfg.Question
	}
	b, d := st.Breadth, st.Depth
	if cfg.Breadth != nil && *cfg.Breadth != b {
		b = *cfg.Breadth
		note("Breadth: %d (was %d)", b, st.Breadth)
	}
	if cfg.Depth != nil && *cfg.Depth != d {
		d = *cfg.Depth
		note("Depth: %d (was %d)", d, st.Depth)
	}
	st.Breadth, st.Depth = b, d
	maxIter := max(st.MaxIterations, MinIterations(b, d))
	if cfg.MaxIterations > 0 {
		maxIter = max(cfg.MaxIterations, MinIterations(b, d))
	}
	if maxIter != st.MaxIterations {
		note("Max iterations: %d (was %d)", maxIter, st.MaxIterations)
		st.MaxIterations = maxIter
	}
	next, _ := resumeSettings(st.Settings, Config{Model: cfg.Model, ReviewModel: cfg.ReviewModel, MockMode: cfg.MockMode,
		Fallback: cfg.Fallback, Timeout: cfg.Timeout})
	if next.Model != st.Model || next.ReviewModel != st.ReviewModel {
		note("Agents: research %s, review %s", next.Model, next.ReviewModel)
	}
	st.Settings = next
	if cfg.TimeBudget > 0 {
		st.TimeBudgetS = cfg.TimeBudget.Seconds()
		note("Time budget: %s", cfg.TimeBudget.Round(time.Second))
	}
	if f.plan != nil {
		f.plan.Topic, f.plan.Breadth, f.plan.Depth = st.OriginalTopic, b, d
		if err := f.plan.Validate(layout.PlanFile); err != nil {
			return badInput("keep --breadth and --depth at least as large as the plan at the fork point needs",
				"the plan at %s does not fit the fork: %v", short(f.src.commits[f.at].Hash), err)
		}
	}
	// A fork writes its own report: if the source had finished its
	// research here, the fork goes back to the research stage, which
	// researches whatever is left and then synthesizes again.
	switch st.Stage {
	case StageSynthesize, StageFinalReview, StageRevise, StageComplete:
		st.Stage, f.redoRest = StageResearch, true
		delete(f.files, layout.ReviewJSON)
	}
	st.IsComplete, st.LimitReached, st.FinalGaps = false, false, nil
	// Agent conversations belong to the source: continuing one would
	// carry the source's context into the fork.
	st.AgentSession = map[string]string{}
	return nil
}

// pending are the topics the fork still has to research, in plan order.
func (f *forker) pending() []string {
	if f.plan == nil {
		return nil
	}
	var out []string
	for _, t := range f.plan.Topics {
		if t.Status != plan.Complete && !f.state.isExhausted(t.Name) {
			out = append(out, t.Name)
		}
	}
	return out
}

package local

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
)

// planTopic is a topic as the test loop tracks it.
type planTopic struct {
	name, parent, desc string
	depth              int
	criteria           []string
	progress           string
	accepted           bool
}

var (
	headingRE = regexp.MustCompile(`^### (.+) \(Depth: (\d+)\)$`)
	subRE     = regexp.MustCompile(`^- ([^:]+): (.+)$`)
)

// parsePlan reads the topics of a research_plan.md.
func parsePlan(t *testing.T, text string) []*planTopic {
	t.Helper()
	var out []*planTopic
	var cur *planTopic
	inCrit := false
	for _, l := range strings.Split(text, "\n") {
		if m := headingRE.FindStringSubmatch(l); m != nil {
			d, _ := strconv.Atoi(m[2])
			cur = &planTopic{name: m[1], depth: d}
			out = append(out, cur)
			inCrit = false
			continue
		}
		if cur == nil {
			continue
		}
		switch {
		case strings.HasPrefix(l, "## "):
			cur = nil
		case strings.HasPrefix(l, "- Description: "):
			cur.desc = strings.TrimPrefix(l, "- Description: ")
		case strings.HasPrefix(l, "- Parent: "):
			cur.parent = strings.TrimPrefix(l, "- Parent: ")
		case l == "- Acceptance Criteria:":
			inCrit = true
		case inCrit && strings.HasPrefix(l, "  - "):
			cur.criteria = append(cur.criteria, strings.TrimPrefix(l, "  - "))
		}
	}
	return out
}

// parseSubtopics reads the Subtopics section of a progress file.
func parseSubtopics(text string) []*planTopic {
	_, sec, ok := strings.Cut(text, "\n## Subtopics\n")
	if !ok {
		return nil
	}
	var out []*planTopic
	for _, l := range strings.Split(sec, "\n") {
		if strings.HasPrefix(l, "## ") {
			break
		}
		if m := subRE.FindStringSubmatch(l); m != nil {
			out = append(out, &planTopic{name: m[1], desc: m[2]})
		} else if strings.HasPrefix(l, "  - ") && len(out) > 0 {
			last := out[len(out)-1]
			last.criteria = append(last.criteria, strings.TrimPrefix(l, "  - "))
		}
	}
	return out
}

// session is the outcome of a simulated research loop.
type session struct {
	plan, report string
	progress     []string // every progress file written
	verdicts     []verdict
	final        verdict
}

// simulate drives the agent through the loop the way phases does: plan,
// research and review every topic breadth-first (at most 3 passes each),
// synthesize, final review and, on rejection, revise.
func simulate(t *testing.T, a agents.Agent, question string, corpus []string, breadth, depth int) session {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	brief := agents.Brief{Question: question, Breadth: breadth, Depth: depth, Corpus: corpus}
	call := func(ph agents.Phase, out string, b agents.Brief) string {
		t.Helper()
		res, err := a.Run(ctx, agents.Task{Phase: ph, Dir: dir, Root: dir, Output: out, Brief: b})
		if err != nil {
			t.Fatalf("%s: %v", ph, err)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatalf("%s wrote no output: %v", ph, err)
		}
		if string(data) != res.Text {
			t.Fatalf("%s: Result.Text differs from the file written", ph)
		}
		return res.Text
	}
	var s session
	s.plan = call(agents.PhasePlan, filepath.Join(dir, "research_plan.md"), brief)
	topics := parsePlan(t, s.plan)
	for i := 0; i < len(topics); i++ {
		tp := topics[i]
		var names []string
		for _, x := range topics {
			names = append(names, x.name)
		}
		b := brief
		b.Topic, b.TopicDepth, b.Description, b.Criteria = tp.name, tp.depth, tp.desc, tp.criteria
		b.Existing, b.CanSubdivide = names, tp.depth < depth
		tp.progress = filepath.Join(dir, "progress", strconv.Itoa(i)+".md")
		var subs []*planTopic
		for pass := 0; pass < 3 && !tp.accepted; pass++ {
			text := call(agents.PhaseResearch, tp.progress, b)
			s.progress = append(s.progress, text)
			subs = parseSubtopics(text)
			rb := b
			rb.ReviewPath = tp.progress
			var v verdict
			if err := json.Unmarshal([]byte(call(agents.PhaseReview, filepath.Join(dir, "review.json"), rb)), &v); err != nil {
				t.Fatalf("review verdict: %v", err)
			}
			s.verdicts = append(s.verdicts, v)
			tp.accepted = v.Verdict == "accept"
			b.Gaps = v.Gaps
		}
		if b.CanSubdivide {
			if len(subs) > breadth {
				t.Fatalf("topic %q proposes %d subtopics, breadth is %d", tp.name, len(subs), breadth)
			}
			for _, st := range subs {
				st.parent, st.depth = tp.name, tp.depth+1
				topics = append(topics, st)
			}
		}
	}
	b := brief
	for _, tp := range topics {
		b.Topics = append(b.Topics, agents.TopicRef{Name: tp.name, Depth: tp.depth, Parent: tp.parent, Progress: tp.progress})
	}
	report := filepath.Join(dir, "reports", "r", "report.md")
	s.report = call(agents.PhaseSynthesize, report, b)
	b.ReviewPath = report
	if err := json.Unmarshal([]byte(call(agents.PhaseFinalReview, filepath.Join(dir, "review.json"), b)), &s.final); err != nil {
		t.Fatalf("final verdict: %v", err)
	}
	if s.final.Verdict == "reject" {
		b.Gaps = s.final.Gaps
		s.report = call(agents.PhaseRevise, report, b)
	}
	return s
}

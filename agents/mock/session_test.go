package mock

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
)

// node is a topic as the test loop tracks it.
type node struct {
	name, parent string
	depth        int
	criteria     []string
	rejected     bool
}

// session is what a test loop run leaves behind.
type session struct {
	files    map[string]string // path relative to the workspace root -> content
	topics   []*node
	rejects  int // topic reviews that rejected
	revised  bool
	maxDepth int
}

var planHeading = regexp.MustCompile(`^### (.+) \(Depth: (\d+)\)$`)

// runSession drives the agent through a whole session the way the loop
// does: plan, then research and review breadth-first (re-researching a
// rejected topic with the review's gaps), then synthesize, final review
// and, if rejected, revise. It fails the test on any contract breach.
func runSession(t *testing.T, a agents.Agent, root, question string, breadth, depth int) session {
	t.Helper()
	ctx := context.Background()
	ws := filepath.Join(root, ".research", "s")
	report := filepath.Join(root, "reports", "s", "report.md")
	s := session{files: map[string]string{}}
	run := func(task agents.Task) agents.Result {
		t.Helper()
		task.Dir, task.Root = ws, root
		task.Brief.Question, task.Brief.Breadth, task.Brief.Depth = question, breadth, depth
		res, err := a.Run(ctx, task)
		if err != nil {
			t.Fatalf("%s %q: %v", task.Phase, task.Brief.Topic, err)
		}
		return res
	}

	run(agents.Task{Phase: agents.PhasePlan, Output: filepath.Join(ws, "research_plan.md")})
	planText := readFile(t, filepath.Join(ws, "research_plan.md"))
	var cur *node
	for line := range strings.Lines(planText) {
		line = strings.TrimRight(line, "\n")
		if m := planHeading.FindStringSubmatch(line); m != nil {
			if m[2] != "0" {
				t.Fatalf("plan topic %q at depth %s", m[1], m[2])
			}
			cur = &node{name: m[1]}
			s.topics = append(s.topics, cur)
		} else if cur != nil && strings.HasPrefix(line, "  - ") {
			cur.criteria = append(cur.criteria, line[4:])
		}
	}
	if len(s.topics) != breadth {
		t.Fatalf("plan has %d topics, want breadth %d:\n%s", len(s.topics), breadth, planText)
	}
	defer func() {
		seen := map[string]bool{}
		for _, n := range s.topics {
			if seen[strings.ToLower(n.name)] {
				t.Errorf("topic name %q used twice", n.name)
			}
			seen[strings.ToLower(n.name)] = true
		}
	}()

	for i := 0; i < len(s.topics); i++ {
		n := s.topics[i]
		var gaps []string
		for pass := 0; ; pass++ {
			if pass == 2 {
				t.Fatalf("topic %q rejected twice", n.name)
			}
			progress := filepath.Join(ws, "progress", slug(n.name)+".md")
			existing := make([]string, len(s.topics))
			for j, o := range s.topics {
				existing[j] = o.name
			}
			brief := agents.Brief{Topic: n.name, TopicDepth: n.depth, Criteria: n.criteria, Gaps: gaps,
				Existing: existing, CanSubdivide: n.depth < depth}
			run(agents.Task{Phase: agents.PhaseResearch, Output: progress, Brief: brief})
			text := readFile(t, progress)
			checkProgress(t, n, text, gaps, breadth, depth)
			if pass == 0 {
				for _, sub := range subtopicsOf(text) {
					s.topics = append(s.topics, &node{name: sub.name, parent: n.name, depth: n.depth + 1, criteria: sub.criteria})
					s.maxDepth = max(s.maxDepth, n.depth+1)
				}
			}
			brief.ReviewPath = progress
			out := filepath.Join(ws, "review.json")
			res := run(agents.Task{Phase: agents.PhaseReview, Output: out, Brief: brief})
			v := checkVerdict(t, res.Text, readFile(t, out))
			if v.Verdict == "accept" {
				break
			}
			n.rejected = true
			s.rejects++
			gaps = v.Gaps
		}
	}

	var refs []agents.TopicRef
	for _, n := range s.topics {
		refs = append(refs, agents.TopicRef{Name: n.name, Depth: n.depth, Parent: n.parent, Status: "Complete",
			Progress: filepath.Join(ws, "progress", slug(n.name)+".md")})
	}
	run(agents.Task{Phase: agents.PhaseSynthesize, Output: report, Brief: agents.Brief{Topics: refs}})
	checkReport(t, readFile(t, report), s.topics)
	var gaps []string
	for pass := 0; ; pass++ {
		out := filepath.Join(ws, "review.json")
		res := run(agents.Task{Phase: agents.PhaseFinalReview, Output: out, Brief: agents.Brief{Topics: refs, ReviewPath: report, Gaps: gaps}})
		v := checkVerdict(t, res.Text, readFile(t, out))
		if v.Verdict == "accept" {
			break
		}
		if pass == 1 {
			t.Fatal("report rejected twice")
		}
		before := readFile(t, report)
		run(agents.Task{Phase: agents.PhaseRevise, Output: report, Brief: agents.Brief{Gaps: v.Gaps}})
		after := readFile(t, report)
		checkReport(t, after, s.topics)
		if len(after) <= len(before) || !strings.HasPrefix(after, before[:strings.Index(before, "## Executive Summary")]) {
			t.Errorf("revise did not edit the report in place")
		}
		s.revised, gaps = true, v.Gaps
	}

	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		s.files[rel] = readFile(t, path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSession runs whole sessions and checks each phase's contract and
// that the tree, the reviews and the final cycle are all exercised.
func TestSession(t *testing.T) {
	tests := []struct {
		question       string
		breadth, depth int
	}{
		{"How do heat pumps perform in cold climates?", 2, 2},
		{"What limits battery recycling?", 3, 1},
		{"Why did the Bronze Age collapse?", 1, 3},
		{"Is remote work more productive?", 3, 0},
		{"What drives coral reef bleaching?", 2, 3},
	}
	rejects, revised, deep := 0, 0, 0
	for _, tc := range tests {
		t.Run(tc.question, func(t *testing.T) {
			s := runSession(t, New(Options{}), t.TempDir(), tc.question, tc.breadth, tc.depth)
			rejects += s.rejects
			if s.revised {
				revised++
			}
			if s.maxDepth == tc.depth && tc.depth > 0 {
				deep++
			}
			if tc.depth == 0 && len(s.topics) != tc.breadth {
				t.Errorf("depth 0 session grew to %d topics", len(s.topics))
			}
		})
	}
	if rejects == 0 || revised == 0 || deep < 3 {
		t.Errorf("over %d sessions: %d topic rejections, %d revised reports, %d trees at full depth; the loop is not exercised",
			len(tests), rejects, revised, deep)
	}
}

// TestDeterministic checks two runs of a session in different places give
// byte-identical files and equal token counts.
func TestDeterministic(t *testing.T) {
	a := runSession(t, New(Options{}), t.TempDir(), "How is sea level rise measured?", 2, 2)
	b := runSession(t, New(Options{}), t.TempDir(), "How is sea level rise measured?", 2, 2)
	if len(a.files) != len(b.files) {
		t.Fatalf("runs wrote %d and %d files", len(a.files), len(b.files))
	}
	for path, content := range a.files {
		if b.files[path] != content {
			t.Errorf("%s differs between runs", path)
		}
	}
	c := runSession(t, New(Options{}), t.TempDir(), "How is sea level rise estimated?", 2, 2)
	if c.files[filepath.Join("reports", "s", "report.md")] == a.files[filepath.Join("reports", "s", "report.md")] {
		t.Error("a different question gave the same report")
	}
}

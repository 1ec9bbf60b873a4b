package phases

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases/layout"
)

func TestSplitRev(t *testing.T) {
	tests := []struct {
		rev, base string
		back      int
		bad       bool
	}{
		{"abc1", "abc1", 0, false},
		{"HEAD~3", "HEAD", 3, false},
		{"HEAD~", "HEAD", 1, false},
		{"HEAD^^", "HEAD", 2, false},
		{"research/x~2^", "research/x", 3, false},
		{"HEAD^2", "", 0, true},
		{"HEAD~99999999", "", 0, true},
	}
	for _, tt := range tests {
		base, back, err := splitRev(tt.rev)
		if (err != nil) != tt.bad || (!tt.bad && (base != tt.base || back != tt.back)) {
			t.Errorf("splitRev(%q) = %q, %d, %v", tt.rev, base, back, err)
		}
	}
}

// fakeHistory is a fork "b" of session "a" at a's review; under a's start
// is a commit of main.
func fakeHistory() *history {
	c := func(hash, phase string, extra ...gitstore.Trailer) gitstore.Commit {
		tr := []gitstore.Trailer{}
		if phase != "" {
			tr = append(tr, gitstore.Trailer{Key: "Rgit-Phase", Value: phase})
		}
		return gitstore.Commit{Hash: hash, Trailers: append(tr, extra...)}
	}
	h := &history{name: "b", branch: "research/b", commits: []gitstore.Commit{
		c("aaaa0001", "research"),
		c("aaaa0002", "fork", gitstore.Trailer{Key: "Rgit-Fork-Of", Value: "a"}),
		c("bbbb0003", "review"),
		c("bbbb0004", "start"),
		c("cccc0005", ""),
	}}
	h.owner = []string{"b", "b", "a", "a", ""}
	return h
}

func TestHistoryResolve(t *testing.T) {
	tests := []struct {
		rev  string
		want int
		bad  string
	}{
		{"", 0, ""},
		{"HEAD", 0, ""},
		{"b~2", 2, ""},
		{"research/b^", 1, ""},
		{"bbbb0004", 3, ""},
		{"BBBB0003", 2, ""},
		{"aaaa", 0, "more than one commit"},
		{"cccc0005", 0, "not a commit of the session"},
		{"HEAD~4", 0, "not a commit of the session"},
		{"HEAD~9", 0, "not a commit of the session"},
		{"dddd", 0, "no such commit"},
		{"abc", 0, "not a commit of the session"},
		{"main", 0, "not a commit of the session"},
	}
	h := fakeHistory()
	for _, tt := range tests {
		got, err := h.resolve(tt.rev)
		if tt.bad != "" {
			var be *BadInputError
			if !errors.As(err, &be) || !strings.Contains(err.Error(), tt.bad) {
				t.Errorf("resolve(%q) = %d, %v; want bad input %q", tt.rev, got, err, tt.bad)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("resolve(%q) = %d, %v; want %d", tt.rev, got, err, tt.want)
		}
	}
}

func TestForkChangesState(t *testing.T) {
	dir := sessionRepo(t)
	b, d := 3, 1
	res, err := Fork(context.Background(), ForkConfig{Dir: dir, Source: "why", Name: "how", Question: "How?",
		Breadth: &b, Depth: &d, ReviewModel: "other"}, Deps{Clock: FixedClock(testNow)})
	if err != nil {
		t.Fatal(err)
	}
	if parent := gitIn(t, dir, "log", "-1", "--format=%P", "research/how"); parent != gitIn(t, dir, "rev-parse", "research/why") {
		t.Errorf("fork parent %s is not the source's head", parent)
	}
	if res.Stage != StageResearch || res.Head != gitIn(t, dir, "rev-parse", "research/how") {
		t.Errorf("result %+v", res)
	}
	st := stateOn(t, dir, "how")
	src := stateOn(t, dir, "why")
	switch {
	case st.Name != "how" || st.OriginalTopic != "How?" || st.Breadth != 3 || st.Depth != 1:
		t.Errorf("name, question, tree: %q %q %d %d", st.Name, st.OriginalTopic, st.Breadth, st.Depth)
	case st.MaxIterations != MinIterations(3, 1) || st.ReviewModel != "other" || st.Model != src.Model:
		t.Errorf("limits and agents: %d %q %q", st.MaxIterations, st.ReviewModel, st.Model)
	case st.IsComplete || st.Stage != StageResearch || len(st.AgentSession) != 0 || st.CurrentPhase != PhaseFork:
		t.Errorf("stage: %+v", st)
	case len(st.Runs) != len(src.Runs)+1 || st.LockToken == nil || *st.LockToken != st.Runs[len(st.Runs)-1]:
		t.Errorf("runs %v, token %v", st.Runs, st.LockToken)
	}
	tree := gitIn(t, dir, "ls-tree", "-r", "--name-only", "research/how")
	if strings.Contains(tree, ".research/why/") || strings.Contains(tree, "reports/") || !strings.Contains(tree, ".research/how/progress/") {
		t.Errorf("fork tree:\n%s", tree)
	}
	if _, err := os.Stat(layout.New(dir, "how").Lock()); !os.IsNotExist(err) {
		t.Errorf("lock left behind: %v", err)
	}
	// The plan at the fork point has depth-0 topics only: a smaller
	// breadth than it has topics does not fit.
	one := 1
	_, err = Fork(context.Background(), ForkConfig{Dir: dir, Source: "why", Name: "narrow", Breadth: &one}, Deps{Clock: FixedClock(testNow)})
	assertBad(t, err, "does not fit")
}

func TestForkFailedCommitLeavesNothing(t *testing.T) {
	dir := sessionRepo(t)
	f := &faultyStore{failSnapshot: 1, snapErr: errors.New("disk full")}
	_, err := Fork(context.Background(), ForkConfig{Dir: dir, Source: "why", Name: "how"}, f.deps(Deps{Clock: FixedClock(testNow)}))
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(layout.New(dir, "how").Workspace()); !os.IsNotExist(err) {
		t.Errorf("workspace left behind: %v", err)
	}
	if out := gitIn(t, dir, "branch", "--list", "research/how"); out != "" {
		t.Errorf("branch created: %q", out)
	}
	// Nothing in the way: the same fork now works.
	if _, err := Fork(context.Background(), ForkConfig{Dir: dir, Source: "why", Name: "how"}, Deps{Clock: FixedClock(testNow)}); err != nil {
		t.Fatal(err)
	}
}

func TestForkRefusesLeftoverWorkspace(t *testing.T) {
	dir := sessionRepo(t)
	ws := layout.New(dir, "how").Workspace()
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ws+"/notes.md", []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Fork(context.Background(), ForkConfig{Dir: dir, Source: "why", Name: "how"}, Deps{Clock: FixedClock(testNow)})
	assertBad(t, err, "holds files of an earlier session")
	if data, _ := os.ReadFile(ws + "/notes.md"); string(data) != "mine" {
		t.Error("the leftover file was touched")
	}
}

func TestReportSession(t *testing.T) {
	dir := sessionRepo(t)
	in := Inspector{Dir: dir, Clock: FixedClock(testNow)}
	v, err := in.ReportSession("why", "")
	if err != nil {
		t.Fatal(err)
	}
	s := v.Session
	if s.Question != "Why?" || !s.Complete || s.Plan == nil || len(s.Report) == 0 || s.Head != gitIn(t, dir, "rev-parse", "research/why") {
		t.Errorf("head view: %+v", s)
	}
	if len(s.Phases) == 0 || s.Phases[0].Phase != "start" || s.Phases[len(s.Phases)-1].Phase != "complete" {
		t.Errorf("phases oldest first: %+v", s.Phases)
	}
	early, err := in.ReportSession("why", "HEAD~4")
	if err != nil {
		t.Fatal(err)
	}
	if early.Session.Complete || len(early.Session.Phases) != len(s.Phases)-4 || len(early.Session.Report) != 0 {
		t.Errorf("early view: complete %v, %d phases, report %q", early.Session.Complete, len(early.Session.Phases), early.Session.Report)
	}
	_, err = in.ReportSession("nope", "")
	assertBad(t, err, `no session named "nope"`)
}

// stateOn is state.json at the head of session name.
func stateOn(t *testing.T, dir, name string) *State {
	t.Helper()
	lay := layout.New(dir, name)
	st, err := ParseState("state.json", []byte(gitIn(t, dir, "show", lay.Branch()+":"+lay.StateTree())))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

package phases

import (
	"context"
	"errors"
	"math/rand"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/phases/plan"
)

func TestSchedulerNext(t *testing.T) {
	topic := func(name, parent string, depth int, st plan.Status) *plan.Topic {
		return &plan.Topic{Name: name, Parent: parent, Depth: depth, Status: st}
	}
	tests := []struct {
		name        string
		topics      []*plan.Topic
		inflight    map[string]Phase
		exhausted   []string
		jobs        int
		canResearch bool
		want        string // "review:X", "research:X" or "" for none
	}{
		{"review before research", []*plan.Topic{topic("A", "", 0, plan.Pending), topic("B", "", 0, plan.InReview)}, nil, nil, 4, true, "review:B"},
		{"breadth first", []*plan.Topic{topic("A", "", 0, plan.Complete), topic("A1", "A", 1, plan.Pending), topic("B", "", 0, plan.Pending)}, nil, nil, 4, true, "research:B"},
		{"child waits for its parent", []*plan.Topic{topic("A", "", 0, plan.InReview), topic("A1", "A", 1, plan.Pending)}, map[string]Phase{"A": PhaseReview}, nil, 4, true, ""},
		{"child of an exhausted parent", []*plan.Topic{topic("A", "", 0, plan.InProgress), topic("A1", "A", 1, plan.Pending)}, nil, []string{"A"}, 4, true, "research:A1"},
		{"subdividing topics wait for earlier ones", []*plan.Topic{topic("A", "", 0, plan.Complete), topic("A1", "A", 1, plan.Pending),
			topic("A2", "A", 1, plan.Pending)}, map[string]Phase{"A1": PhaseResearch}, nil, 4, true, ""},
		{"leaves do not wait", []*plan.Topic{topic("A", "", 0, plan.Complete), topic("A1", "A", 1, plan.Complete),
			topic("A1x", "A1", 2, plan.Pending), topic("B", "", 0, plan.Pending)}, map[string]Phase{"B": PhaseResearch}, nil, 4, true, "research:A1x"},
		{"no slot", []*plan.Topic{topic("A", "", 0, plan.Pending), topic("B", "", 0, plan.Pending)}, map[string]Phase{"A": PhaseResearch}, nil, 1, true, ""},
		{"no iteration left: reviews only", []*plan.Topic{topic("A", "", 0, plan.Pending), topic("B", "", 0, plan.InReview)}, nil, nil, 4, false, "review:B"},
		{"no iteration left", []*plan.Topic{topic("A", "", 0, plan.Pending)}, nil, nil, 4, false, ""},
		{"in flight is skipped", []*plan.Topic{topic("A", "", 0, plan.InReview), topic("B", "", 0, plan.Pending)}, map[string]Phase{"A": PhaseReview}, nil, 4, true, "research:B"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &plan.Plan{Topic: "q", Breadth: 2, Depth: 2}
			for _, x := range tt.topics {
				if !slices.ContainsFunc(p.Topics, func(y *plan.Topic) bool { return y.Name == x.Name }) {
					p.Topics = append(p.Topics, x)
				}
			}
			s := newScheduler(tt.jobs)
			for name, ph := range tt.inflight {
				s.start(ph, name)
			}
			step, ok := s.next(p, func(n string) bool { return slices.Contains(tt.exhausted, n) }, p.Depth, p.Breadth, tt.canResearch)
			got := ""
			if ok {
				got = map[plan.StepKind]string{plan.StepResearch: "research:", plan.StepReview: "review:"}[step.Kind] + step.Topic.Name
			}
			if got != tt.want {
				t.Errorf("next = %q, want %q", got, tt.want)
			}
		})
	}
}

// gated answers like scripted but holds every topic call until the test
// releases it, so the test decides the order calls end in.
type gated struct {
	scripted
	arrivals chan *gatedCall
	mu       sync.Mutex
	running  int
	most     int
	log      []string // "start research:X", "end review:X", in order
}

type gatedCall struct {
	task    agents.Task
	release chan struct{}
}

func (g *gated) Run(ctx context.Context, task agents.Task) (agents.Result, error) {
	g.mu.Lock()
	g.running++
	g.most = max(g.most, g.running)
	g.log = append(g.log, "start "+string(task.Phase)+":"+task.Brief.Topic)
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		g.running--
		g.log = append(g.log, "end "+string(task.Phase)+":"+task.Brief.Topic)
		g.mu.Unlock()
	}()
	if task.Brief.Topic != "" {
		c := &gatedCall{task: task, release: make(chan struct{})}
		select {
		case g.arrivals <- c:
		case <-ctx.Done():
			return agents.Result{}, ctx.Err()
		}
		select {
		case <-c.release:
		case <-ctx.Done():
			return agents.Result{}, ctx.Err()
		}
	}
	return g.scripted.Run(ctx, task)
}

// drive releases the calls in flight one at a time, in an order drawn from
// seed, each time the stage waits with every call it may start started.
func drive(t *testing.T, g *gated, seed int64, stop <-chan struct{}) {
	rng := rand.New(rand.NewSource(seed))
	waiting := make(chan int)
	stageWaiting = func(busy int) { waiting <- busy }
	t.Cleanup(func() { stageWaiting = nil })
	go func() {
		var pending []*gatedCall
		for {
			select {
			case busy := <-waiting:
				for len(pending) < busy {
					pending = append(pending, <-g.arrivals)
				}
				i := rng.Intn(len(pending))
				close(pending[i].release)
				pending = slices.Delete(pending, i, i+1)
			case c := <-g.arrivals:
				pending = append(pending, c)
			case <-stop:
				return
			}
		}
	}()
}

// A breadth 3 depth 2 session with several calls in flight: never more
// than --jobs, every topic researched after its parent was accepted and
// reviewed after its research, and the same plan and report whatever
// order the calls end in.
func TestJobsBoundAndDependencies(t *testing.T) {
	var want string
	for _, tc := range []struct {
		jobs int
		seed int64
	}{{1, 1}, {3, 2}, {4, 3}, {8, 4}} {
		dir := testRepo(t)
		g := &gated{scripted: scripted{name: "fake"}, arrivals: make(chan *gatedCall)}
		stop := make(chan struct{})
		drive(t, g, tc.seed, stop)
		sum, _, err := runWith(t, dir, Config{Topic: "Why?", Breadth: 3, Depth: 2, Model: "fake", ReviewModel: "fake", Jobs: tc.jobs, Yes: true},
			map[string]agents.Agent{"fake": g})
		close(stop)
		if err != nil || !sum.Finished {
			t.Fatalf("jobs %d: Research = %+v, %v", tc.jobs, sum, err)
		}
		if g.most > tc.jobs {
			t.Errorf("jobs %d: %d calls ran at once", tc.jobs, g.most)
		}
		if tc.jobs == 3 && g.most != 3 {
			t.Errorf("jobs 3: at most %d calls ran at once; three roots could run together", g.most)
		}
		checkOrder(t, g.log)
		got := gitShow(t, dir, "research/why:.research/why/research_plan.md")
		if got == "" {
			got = gitShow(t, dir, "research/why~1:.research/why/research_plan.md")
		}
		got += gitShow(t, dir, "research/why:reports/why/report.md")
		if want == "" {
			want = got
		} else if got != want {
			t.Errorf("jobs %d: plan and report differ from jobs 1:\n%s\nwant:\n%s", tc.jobs, got, want)
		}
	}
}

// checkOrder checks the call log: a topic's research starts after its
// parent's review ended, and its review after its research ended.
func checkOrder(t *testing.T, log []string) {
	t.Helper()
	ended := map[string]bool{}
	for _, l := range log {
		verb, call, _ := strings.Cut(l, " ")
		phase, topic, _ := strings.Cut(call, ":")
		if verb == "end" {
			ended[call] = true
			continue
		}
		if topic == "" {
			continue
		}
		switch phase {
		case string(PhaseResearch):
			// scripted names a subtopic "<parent> detail".
			if parent, ok := strings.CutSuffix(topic, " detail"); ok && !ended["review:"+parent] {
				t.Errorf("research of %q started before its parent was reviewed", topic)
			}
		case string(PhaseReview):
			if !ended["research:"+topic] {
				t.Errorf("review of %q started before its research ended", topic)
			}
		}
	}
}

// Calls in flight never take the session past its iteration limit: every
// research call started is committed, and no more start than the limit
// allows. The reviewer rejects everything, so only the limit ends research,
// and with no topic accepted the run fails as research that found nothing.
func TestJobsReserveIterations(t *testing.T) {
	dir := testRepo(t)
	g := &gated{scripted: scripted{name: "fake", reject: true}, arrivals: make(chan *gatedCall)}
	stop := make(chan struct{})
	drive(t, g, 7, stop)
	sum, _, err := runWith(t, dir, Config{Topic: "Why?", Breadth: 3, Depth: 0, Model: "fake", ReviewModel: "fake", Jobs: 4},
		map[string]agents.Agent{"fake": g})
	close(stop)
	var failed *ResearchFailedError
	if !errors.As(err, &failed) || failed.Limit != LimitIterations || !sum.LimitReached {
		t.Fatalf("Research = %+v, %v; want the iteration limit to end research with nothing accepted", sum, err)
	}
	research := 0
	for _, l := range g.log {
		if strings.HasPrefix(l, "start research:") {
			research++
		}
	}
	if research != sum.MaxIter || sum.Iterations != sum.MaxIter {
		t.Errorf("%d research calls started, %d iterations committed; limit %d", research, sum.Iterations, sum.MaxIter)
	}
}

// Cancelling the run with calls in flight stops every one of them before
// Research returns, and commits none of them.
func TestJobsCancel(t *testing.T) {
	dir := testRepo(t)
	g := &gated{scripted: scripted{name: "fake"}, arrivals: make(chan *gatedCall)}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for i := 0; i < 3; i++ {
			<-g.arrivals // the three roots are in flight; none is released
		}
		cancel()
	}()
	cfg := Config{Topic: "Why?", Breadth: 3, Depth: 0, Model: "fake", ReviewModel: "fake", Jobs: 4, Dir: dir}
	deps := Deps{NewAgent: func(string) (agents.Agent, error) { return g, nil }}
	_, err := Research(ctx, cfg, deps)
	if !errors.Is(err, ErrCancelled) {
		t.Fatalf("Research = %v, want ErrCancelled", err)
	}
	g.mu.Lock()
	running := g.running
	g.mu.Unlock()
	if running != 0 {
		t.Errorf("%d agent calls still running after Research returned", running)
	}
	if got := gitShow(t, dir, "research/why:.research/why/state.json"); !strings.Contains(got, `"stage": "research"`) || strings.Contains(got, `"iteration": 1`) {
		t.Errorf("the head after cancel is not the plan commit:\n%s", got)
	}
}

// gitShow is `git show rev` in dir, "" when it fails.
func gitShow(t *testing.T, dir, rev string) string {
	t.Helper()
	cmd := exec.Command("git", "show", rev)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return string(out)
}

func TestJobsDefaults(t *testing.T) {
	tests := []struct {
		name          string
		jobs          int
		model, review string
		fallback      []string
		want          int
	}{
		{"mock runs one at a time", 0, "mock", "mock", nil, 1},
		{"a CLI", 0, "claude:x", "claude:y", nil, 4},
		{"auto", 0, "auto", "auto", nil, 4},
		{"local is one per CPU, the smaller wins", 0, "local", "codex:m", nil, min(runtime.NumCPU(), 4)},
		{"unknown backend", 0, "fake", "fake", nil, 1},
		{"explicit", 8, "claude:x", "claude:y", []string{"local"}, 8},
		{"explicit mock", 8, "mock", "mock", nil, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &run{state: &State{Settings: Settings{Jobs: tt.jobs, Model: tt.model, ReviewModel: tt.review, Fallback: tt.fallback}}}
			if got := r.jobs(); got != tt.want {
				t.Errorf("jobs = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestExhaustedInOrder(t *testing.T) {
	p := &plan.Plan{Topics: []*plan.Topic{{Name: "A"}, {Name: "A1", Depth: 1, Parent: "A"}, {Name: "B"}, {Name: "B1", Depth: 1, Parent: "B"}}}
	r := &run{plan: p, state: &State{Exhausted: []string{"B1", "gone", "A1", "B"}}}
	if got, want := r.exhaustedInOrder(), []string{"B", "A1", "B1", "gone"}; !slices.Equal(got, want) {
		t.Errorf("exhaustedInOrder = %v, want %v", got, want)
	}
}

package phases

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/mock"
	"github.com/rgit-dev/rgit/phases/layout"
)

func TestCouncilMembers(t *testing.T) {
	tests := []struct {
		specs []string
		want  []string
		err   string
	}{
		{[]string{"claude", "codex:gpt-5.3-codex", "gemini:gemini-2.5-pro"}, []string{"claude", "codex", "gemini"}, ""},
		{[]string{"mock:alpha", "mock:beta"}, []string{"mock-alpha", "mock-beta"}, ""},
		{[]string{"mock:alpha", "claude"}, []string{"mock", "claude"}, ""},
		{[]string{"opencode/big-pickle", "opencode:ollama/qwen3:8b"}, []string{"opencode-opencode-big-pickle", "opencode-ollama-qwen3-8b"}, ""},
		{[]string{"mock:Alpha One", "mock:b"}, []string{"mock-alpha-one", "mock-b"}, ""},
		{[]string{"mock:a", "mock:a"}, nil, "appears twice"},
		{[]string{"claude", ":x"}, nil, "invalid council member"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.specs, ","), func(t *testing.T) {
			got, err := CouncilMembers(tc.specs)
			if tc.err != "" {
				assertBad(t, err, tc.err)
				return
			}
			if err != nil || !slices.Equal(memberNames(got), tc.want) {
				t.Errorf("names = %v (%v), want %v", memberNames(got), err, tc.want)
			}
		})
	}
}

func TestParseRanking(t *testing.T) {
	labels := map[string]string{"Report A": "beta", "Report B": "gamma"}
	tests := []struct {
		name, in, err string
		want          []string // members, best first
	}{
		{"plain", `{"ranking":[{"report":"Report B","reason":"deeper"},{"report":"Report A","reason":"thin"}]}`, "", []string{"gamma", "beta"}},
		{"fenced in prose", "Here it is:\n```json\n{\"ranking\": [{\"report\": \"Report A\", \"reason\": \"r\"}, {\"report\": \" Report B \", \"reason\": \"s\"}]}\n```\n", "", []string{"beta", "gamma"}},
		{"not json", "I prefer Report A.", "not a JSON object", nil},
		{"broken json", `{"ranking": [}`, "parse ranking", nil},
		{"unknown label", `{"ranking":[{"report":"Report C","reason":"x"},{"report":"Report A","reason":"y"}]}`, `"Report C", which is not one of`, nil},
		{"own name", `{"ranking":[{"report":"alpha","reason":"x"}]}`, `"alpha", which is not one of`, nil},
		{"twice", `{"ranking":[{"report":"Report A","reason":"x"},{"report":"Report A","reason":"y"}]}`, "twice", nil},
		{"no reason", `{"ranking":[{"report":"Report A","reason":" "},{"report":"Report B","reason":"y"}]}`, "no reason", nil},
		{"one missing", `{"ranking":[{"report":"Report A","reason":"x"}]}`, "lists 1 of the 2", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseRanking([]byte(tc.in), labels)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var members []string
			for i, e := range got {
				members = append(members, e.Member)
				if e.Rank != i+1 {
					t.Errorf("entry %d has rank %d", i, e.Rank)
				}
			}
			if !slices.Equal(members, tc.want) {
				t.Errorf("members = %v, want %v", members, tc.want)
			}
		})
	}
}

// A ranker is shown every other member once, under labels only, never
// itself; and the mean rank ignores rankings of oneself and of members
// left out.
func TestLabelsAndAggregate(t *testing.T) {
	all := []string{"alpha", "beta", "gamma", "delta"}
	for _, ranker := range all {
		others := slices.DeleteFunc(slices.Clone(all), func(m string) bool { return m == ranker })
		labels := labelsFor("s", ranker, others)
		var shown []string
		for l, m := range labels {
			if !strings.HasPrefix(l, "Report ") {
				t.Errorf("label %q", l)
			}
			shown = append(shown, m)
		}
		slices.Sort(shown)
		slices.Sort(others)
		if !slices.Equal(shown, others) {
			t.Errorf("%s is shown %v, want %v", ranker, shown, others)
		}
	}
	rk := func(ranker string, members ...string) Ranking {
		r := Ranking{Ranker: ranker}
		for i, m := range members {
			r.Ranking = append(r.Ranking, RankEntry{Member: m, Rank: i + 1})
		}
		return r
	}
	got := aggregate([]Ranking{rk("alpha", "beta", "gamma"), rk("beta", "gamma", "alpha"), rk("gamma", "gamma", "beta", "alpha"),
		rk("delta", "alpha", "beta")}, []string{"alpha", "beta", "gamma"})
	want := []AggregateRank{{"beta", 1.5, 2}, {"gamma", 1.5, 2}, {"alpha", 2.5, 2}} // gamma ranking itself does not count
	if !slices.Equal(got, want) {
		t.Errorf("aggregate = %+v, want %+v", got, want)
	}
}

// councilDeps builds mock members by spec (mock:NAME), with failure rules
// per member, and records events.
func councilDeps(t *testing.T, rules string) (Deps, *[]Event) {
	t.Helper()
	fail, err := mock.ParseRules(rules)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	events := &[]Event{}
	a := mock.New(mock.Options{Fail: fail})
	return Deps{
		NewAgent: func(string) (agents.Agent, error) { return a, nil },
		Reporter: ReporterFunc(func(e Event) { mu.Lock(); *events = append(*events, e); mu.Unlock() }),
		Clock:    FixedClock(testNow),
	}, events
}

func councilCfg(dir string, specs ...string) Config {
	return withDir(Config{Topic: "How do tides work?", Name: "tides", Breadth: 3, Depth: 3, Model: "auto", ReviewModel: "auto",
		Council: CouncilConfig{Specs: specs}}, dir)
}

// Four members, one failing its research: the three others each rank the
// two others', by label, and the session merges them in an octopus.
func TestCouncilFourMembers(t *testing.T) {
	dir := testRepo(t)
	deps, events := councilDeps(t, "delta=error@member-research*all")
	sum, err := Research(context.Background(), councilCfg(dir, "mock:alpha", "mock:beta", "mock:gamma", "mock:delta"), deps)
	if err != nil || !sum.Finished {
		t.Fatalf("%v %+v", err, sum)
	}
	lay := layout.New(dir, "tides")
	for _, m := range []string{"mock-alpha", "mock-beta", "mock-gamma"} {
		data := gitIn(t, dir, "show", lay.MemberBranch(m)+":"+lay.MemberTree(m)+"/ranking.json")
		if strings.Contains(data, `"member": "`+m+`"`) || strings.Count(data, `"member": `) != 2 ||
			!strings.Contains(data, `"Report A"`) || !strings.Contains(data, `"Report B"`) || strings.Contains(data, "mock-delta") {
			t.Errorf("%s's ranking:\n%s", m, data)
		}
	}
	parents := strings.Fields(gitIn(t, dir, "log", "-1", "--format=%P", "--grep=^council-merge", "research/tides"))
	if len(parents) != 4 {
		t.Errorf("octopus parents = %v, want the start and three members", parents)
	}
	if _, err := os.Stat(lay.MemberDir("mock-delta")); !os.IsNotExist(err) {
		t.Errorf("the failed member's directory is still in the workspace: %v", err)
	}
	var msgs []string
	for _, e := range *events {
		if e.Message != "" {
			msgs = append(msgs, e.Message)
		}
	}
	for _, want := range []string{"Phase 1: mock-alpha research starting (iteration 1/10)", "Phase 1: mock-alpha iteration 2/10",
		"Phase 1: 3 of 4 agents complete; left out: mock-delta", "Phase 2: Starting refinement...", "Phase 3: synthesis by mock:alpha"} {
		if !slices.Contains(msgs, want) {
			t.Errorf("no event %q in\n%s", want, strings.Join(msgs, "\n"))
		}
	}
	report := gitIn(t, dir, "show", "main:reports/tides/report.md")
	if !strings.Contains(report, "- mock-delta: retries exhausted: member-research") {
		t.Errorf("methodology does not name the failed member:\n%s", report)
	}
}

// Every member failing ends the run with their errors and nothing merged;
// a resume that can succeed runs them again and finishes.
func TestCouncilAllFailThenResume(t *testing.T) {
	dir := testRepo(t)
	deps, _ := councilDeps(t, "error@member-research*all")
	_, err := Research(context.Background(), councilCfg(dir, "mock:alpha", "mock:beta"), deps)
	var failed *CouncilFailedError
	if !errors.As(err, &failed) || len(failed.Errors) != 2 || !strings.Contains(err.Error(), "mock-alpha: retries exhausted") {
		t.Fatalf("err = %v, want every member's error", err)
	}
	if got := gitIn(t, dir, "log", "--format=%s", "main"); got != "start" {
		t.Errorf("main moved: %s", got)
	}
	deps, _ = councilDeps(t, "")
	sum, err := Research(context.Background(), withDir(Config{Name: "tides", Resume: true, Breadth: 3, Depth: 3, Model: "auto", ReviewModel: "auto"}, dir), deps)
	if err != nil || !sum.Finished || sum.Council != "2 members (mock-alpha, mock-beta)" {
		t.Fatalf("resume: %v %+v", err, sum)
	}
}

// A malformed ranking is a failed gate: the ladder retries it with the
// recovery prompt, and the notes are committed on the member's branch. A
// member whose every ranking attempt fails stays in the council, and the
// aggregate goes without its ranking.
func TestCouncilRankingGate(t *testing.T) {
	dir := testRepo(t)
	deps, events := councilDeps(t, "alpha=garbage@rank,gamma=garbage@rank*all")
	sum, err := Research(context.Background(), councilCfg(dir, "mock:alpha", "mock:beta", "mock:gamma"), deps)
	if err != nil || !sum.Finished {
		t.Fatalf("%v %+v", err, sum)
	}
	lay := layout.New(dir, "tides")
	notes := gitIn(t, dir, "show", lay.MemberBranch("mock-alpha")+":"+lay.MemberTree("mock-alpha")+"/recovery.notes.md")
	if !strings.Contains(notes, "rank") || !strings.Contains(notes, "ranking") {
		t.Errorf("alpha's recovery notes:\n%s", notes)
	}
	gitIn(t, dir, "show", lay.MemberBranch("mock-alpha")+":"+lay.MemberTree("mock-alpha")+"/ranking.json")
	if _, err := exec.Command("git", "-C", dir, "show", lay.MemberBranch("mock-gamma")+":"+lay.MemberTree("mock-gamma")+"/ranking.json").Output(); err == nil {
		t.Errorf("gamma committed a ranking though every attempt was garbage")
	}
	st, err := ParseState("state.json", []byte(gitIn(t, dir, "show", "research/tides~1:.research/tides/state.json")))
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Council.Failed) != 0 || len(st.Council.Ranking) != 3 {
		t.Errorf("failed %v, ranking %+v: gamma stays in, ranked by alpha and beta", st.Council.Failed, st.Council.Ranking)
	}
	for _, a := range st.Council.Ranking {
		if want := map[string]int{"mock-alpha": 1, "mock-beta": 1, "mock-gamma": 2}[a.Member]; a.Rankings != want {
			t.Errorf("%s was ranked %d times, want %d", a.Member, a.Rankings, want)
		}
	}
	warned := false
	for _, e := range *events {
		warned = warned || e.Kind == EventWarning && strings.Contains(e.Message, "mock-gamma's peer review failed")
	}
	if !warned {
		t.Error("no warning about gamma's failed peer review")
	}
}

package phases

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/mock"
)

// BenchmarkCouncil runs a council of three mock members whose calls take
// 0.5 s, 1 s and 1.5 s. The members work in parallel, so the council
// should take about as long as its slowest member's own chain (research
// iterations, refinement, ranking) plus the synthesis chain (synthesize,
// final review, revise when asked) on the synthesizer. It reports
// x-ideal, the wall time to the session's completion commit over that
// sum (the goal is at most 1.1), and x-ideal-merged, the whole run over it:
// that adds the merge into the target branch and the repack every session
// ends with.
func BenchmarkCouncil(b *testing.B) {
	delays := map[string]time.Duration{"mock:alpha": 500 * time.Millisecond, "mock:beta": time.Second, "mock:gamma": 1500 * time.Millisecond}
	made := map[string]agents.Agent{}
	for spec, d := range delays {
		made[spec] = mock.New(mock.Options{Delay: d})
	}
	var start, completed time.Time
	deps := Deps{NewAgent: func(spec string) (agents.Agent, error) { return made[spec], nil },
		Reporter: ReporterFunc(func(e Event) {
			if e.Kind == EventPhaseDone && e.Phase == PhaseComplete {
				completed = time.Now()
			}
		})}
	var ratio, merged float64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dir := testRepo(b)
		b.StartTimer()
		start = time.Now()
		sum, err := Research(context.Background(), Config{Dir: dir, Topic: "How do tides work?", Name: "tides", Breadth: 3, Depth: 3,
			Model: "auto", ReviewModel: "auto", Council: CouncilConfig{Specs: []string{"mock:alpha", "mock:beta", "mock:gamma"}}}, deps)
		wall := time.Since(start)
		if err != nil || !sum.Finished {
			b.Fatalf("%v %+v", err, sum)
		}
		b.StopTimer()
		ideal := idealCouncil(b, dir, delays).Seconds()
		ratio, merged = completed.Sub(start).Seconds()/ideal, wall.Seconds()/ideal
		b.StartTimer()
	}
	b.ReportMetric(ratio, "x-ideal")
	b.ReportMetric(merged, "x-ideal-merged")
}

// idealCouncil is the slowest member's chain plus the synthesis chain, from
// the calls the session recorded.
func idealCouncil(b *testing.B, dir string, delays map[string]time.Duration) time.Duration {
	st, err := ParseState("state.json", []byte(gitIn(&testing.T{}, dir, "show", "research/tides~1:.research/tides/state.json")))
	if err != nil {
		b.Fatal(err)
	}
	var slowest time.Duration
	for _, rec := range st.Council.Results {
		slowest = max(slowest, time.Duration(rec.Usage.Calls)*delays[rec.Spec])
	}
	final := 0
	for _, s := range strings.Fields(gitIn(&testing.T{}, dir, "log", "--format=%(trailers:key=Rgit-Phase,valueonly)", "research/tides")) {
		if s == string(PhaseSynthesize) || s == string(PhaseFinalReview) || s == string(PhaseRevise) {
			final++
		}
	}
	return slowest + time.Duration(final)*delays[st.Council.Synthesizer]
}

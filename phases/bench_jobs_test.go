package phases

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/mock"
)

// jobsRun is one breadth 3 depth 2 mock session with each call taking
// delay, and what it measured.
type jobsRun struct {
	wall, path, tree time.Duration
	landed           []time.Duration // rgit's own time per topic commit
}

func jobsSession(b *testing.B, jobs int, delay time.Duration) jobsRun {
	b.Helper()
	dir := testRepo(b)
	var out jobsRun
	stageLanded = func(d time.Duration) { out.landed = append(out.landed, d) }
	defer func() { stageLanded = nil }()
	cfg := Config{Dir: dir, Topic: "How do tides shape coastlines?", Breadth: 3, Depth: 2, Model: "mock", ReviewModel: "mock",
		MockMode: true, Yes: true, Jobs: jobs}
	agent := mock.New(mock.Options{Delay: delay})
	t0 := time.Now()
	sum, err := Research(context.Background(), cfg, Deps{NewAgent: func(string) (agents.Agent, error) { return agent, nil }})
	if err != nil || !sum.Finished {
		b.Fatalf("session: %+v, %v", sum, err)
	}
	out.wall, out.path, out.tree = time.Since(t0), sum.CriticalPath, sum.TreePath
	return out
}

// benchJobs runs the session three times for each --jobs and reports the
// median wall time, its spread, rgit's critical path, their ratio, and
// rgit's own time per topic commit against --jobs 1's.
func benchJobs(b *testing.B, delay time.Duration) {
	var seqLanded time.Duration
	for _, jobs := range []int{1, 4, 8, 16} {
		b.Run(fmt.Sprintf("jobs%d", jobs), func(b *testing.B) {
			var walls, paths, trees, landed []time.Duration
			for i := 0; i < b.N; i++ {
				for range 3 {
					r := jobsSession(b, jobs, delay)
					walls, paths, trees, landed = append(walls, r.wall), append(paths, r.path), append(trees, r.tree), append(landed, r.landed...)
				}
			}
			w, p := median(walls), median(paths)
			lo, hi := minMax(walls)
			b.ReportMetric(w.Seconds(), "s/wall")
			b.ReportMetric((hi - lo).Seconds(), "s/wall-spread")
			b.ReportMetric(p.Seconds(), "s/critical-path")
			b.ReportMetric(float64(w)/float64(p), "wall/critical-path")
			b.ReportMetric(median(trees).Seconds(), "s/tree-path")
			l := median(landed)
			b.ReportMetric(float64(l.Microseconds())/1000, "ms/commit")
			if jobs == 1 {
				seqLanded = l
			} else if seqLanded > 0 {
				b.ReportMetric(float64(l)/float64(seqLanded), "commit/sequential")
			}
		})
	}
}

func minMax(ds []time.Duration) (lo, hi time.Duration) {
	lo, hi = ds[0], ds[0]
	for _, d := range ds {
		lo, hi = min(lo, d), max(hi, d)
	}
	return lo, hi
}

// BenchmarkJobs200ms: breadth 3 depth 2, mock calls of 200 ms, --jobs 1,
// 4, 8 and 16. Goal: --jobs 16 wall at most 1.15x the critical path, and
// rgit's own time per commit with calls finishing together at most 1.5x
// --jobs 1's.
func BenchmarkJobs200ms(b *testing.B) { benchJobs(b, 200*time.Millisecond) }

// BenchmarkJobs1s is the same with 1 s calls; --jobs 1 alone takes about
// 100 s, so it runs only with RGIT_BENCH_SLOW=1.
func BenchmarkJobs1s(b *testing.B) {
	if os.Getenv("RGIT_BENCH_SLOW") == "" {
		b.Skip("set RGIT_BENCH_SLOW=1 to run the 1 s variant")
	}
	benchJobs(b, time.Second)
}

package phases

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/mock"
)

// mockSession runs a whole mock session and returns rgit's own time per
// phase (the phase's wall time minus the agent call), in order.
func mockSession(b *testing.B, breadth, depth int) []time.Duration {
	b.Helper()
	var overhead []time.Duration
	for _, p := range mockPhases(b, breadth, depth) {
		overhead = append(overhead, p.overhead)
	}
	return overhead
}

// phaseCost is one committed phase of a mock session and rgit's own time in it.
type phaseCost struct {
	phase    Phase
	overhead time.Duration
	cpu      time.Duration // the process's CPU time since the phase before: rgit's and the in-process mock's
}

// mockPhases runs a whole mock session and returns its phases in order.
func mockPhases(b *testing.B, breadth, depth int) []phaseCost {
	b.Helper()
	dir := testRepo(b)
	var out []phaseCost
	cpu := processCPU()
	cfg := Config{Dir: dir, Topic: "How do tides shape coastlines?", Breadth: breadth, Depth: depth, MaxIterations: 5000,
		Model: "mock", ReviewModel: "mock", MockMode: true, Yes: true}
	deps := Deps{
		NewAgent: func(string) (agents.Agent, error) { return mock.New(mock.Options{}), nil },
		Reporter: ReporterFunc(func(e Event) {
			if e.Kind == EventPhaseDone {
				now := processCPU()
				out = append(out, phaseCost{phase: e.Phase, overhead: e.Duration - e.AgentTime, cpu: now - cpu})
				cpu = now
			}
		}),
	}
	if _, err := Research(context.Background(), cfg, deps); err != nil {
		b.Fatal(err)
	}
	return out
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// BenchmarkSessionB3D3 is a mock session of breadth 3 depth 3 end to end.
// Goal: rgit's own time per phase under 5 ms (median). The shared
// machine's file system speed swings several-fold within minutes, so the
// same run also measures a floor: creating and renaming 12 small files,
// about the file operations one phase commit needs (its objects and
// workspace files), and reports the ratio.
func BenchmarkSessionB3D3(b *testing.B) {
	var all, floor []time.Duration
	for i := 0; i < b.N; i++ {
		all = append(all, mockSession(b, 3, 3)...)
		floor = append(floor, fileFloor(b, 40)...)
	}
	b.ReportMetric(float64(median(all).Microseconds())/1000, "ms/phase-overhead")
	b.ReportMetric(float64(median(floor).Microseconds())/1000, "ms/fs-floor")
	b.ReportMetric(float64(median(all))/float64(median(floor)), "overhead/floor")
	b.ReportMetric(float64(len(all)/b.N), "phases/session")
}

// fileFloor times n rounds of creating, writing and renaming 12 files of
// 2 KiB into fresh fan-out directories, as loose objects are written.
func fileFloor(b *testing.B, n int) []time.Duration {
	dir := b.TempDir()
	data := make([]byte, 2048)
	out := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		t0 := time.Now()
		for j := 0; j < 12; j++ {
			sub := filepath.Join(dir, fmt.Sprintf("%02x", (i*12+j)%256))
			if err := os.MkdirAll(sub, 0o755); err != nil {
				b.Fatal(err)
			}
			tmp := filepath.Join(sub, fmt.Sprintf("tmp-%d", j))
			if err := os.WriteFile(tmp, data, 0o444); err != nil {
				b.Fatal(err)
			}
			if err := os.Rename(tmp, filepath.Join(sub, fmt.Sprintf("obj-%d-%d", i, j))); err != nil {
				b.Fatal(err)
			}
		}
		out = append(out, time.Since(t0))
	}
	return out
}

// BenchmarkPhaseGrowthB4D3 compares rgit's per-phase time over the last 10
// phases of a breadth 4 depth 3 session with its first 10, three sessions
// an iteration, medians over all of them. Goal: within 1.3x.
//
// last/first is the measure: any phase. The last 10 then hold the
// session's four one-off phases (synthesize, final review, revise,
// complete), which do more than a topic commit (the whole report, the
// methodology, dropping the intermediate files), so its median is the
// slowest of the six topic phases beside them. topic-last/first compares
// like with like, the first and last 10 research and review phases: the
// work that repeats, and would grow if a commit did work in proportion to
// the session. ms/final-phases is the median of the four one-off phases.
// The machine's load swings wall times several-fold within one session,
// so topic-cpu-last/first compares the same phases by the process's CPU
// time per phase (rgit's and the in-process mock agent's, whose share does
// not grow).
func BenchmarkPhaseGrowthB4D3(b *testing.B) {
	var first, last, tFirst, tLast, final, cFirst, cLast []time.Duration
	for i := 0; i < b.N; i++ {
		for range 3 {
			ps := mockPhases(b, 4, 3)
			if len(ps) < 20 {
				b.Fatalf("only %d phases", len(ps))
			}
			var topics, cpus []time.Duration
			for j, p := range ps {
				switch {
				case j < 10:
					first = append(first, p.overhead)
				case j >= len(ps)-10:
					last = append(last, p.overhead)
				}
				if p.phase == PhaseResearch || p.phase == PhaseReview {
					topics, cpus = append(topics, p.overhead), append(cpus, p.cpu)
				} else if j >= len(ps)-4 {
					final = append(final, p.overhead)
				}
			}
			tFirst = append(tFirst, topics[:10]...)
			tLast = append(tLast, topics[len(topics)-10:]...)
			cFirst, cLast = append(cFirst, cpus[:10]...), append(cLast, cpus[len(cpus)-10:]...)
		}
	}
	f, l := median(first), median(last)
	b.ReportMetric(float64(f.Microseconds())/1000, "ms/first10")
	b.ReportMetric(float64(l.Microseconds())/1000, "ms/last10")
	b.ReportMetric(float64(l)/float64(f), "last/first")
	tf, tl := median(tFirst), median(tLast)
	b.ReportMetric(float64(tf.Microseconds())/1000, "ms/topic-first10")
	b.ReportMetric(float64(tl.Microseconds())/1000, "ms/topic-last10")
	b.ReportMetric(float64(tl)/float64(tf), "topic-last/first")
	b.ReportMetric(float64(median(final).Microseconds())/1000, "ms/final-phases")
	if cf, cl := median(cFirst), median(cLast); cf > 0 {
		b.ReportMetric(float64(cf.Microseconds())/1000, "cpu-ms/topic-first10")
		b.ReportMetric(float64(cl.Microseconds())/1000, "cpu-ms/topic-last10")
		b.ReportMetric(float64(cl)/float64(cf), "topic-cpu-last/first")
	}
}

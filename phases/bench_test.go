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
	var out []phaseCost
	cpu := processCPU()
	runMock(b, breadth, depth, func(p phaseCost) {
		now := processCPU()
		p.cpu, cpu = now-cpu, now
		out = append(out, p)
	})
	return out
}

// runMock runs a whole mock session in a new repository and calls done
// with each committed phase (its cpu left zero), on the session's goroutine.
func runMock(b *testing.B, breadth, depth int, done func(phaseCost)) {
	b.Helper()
	cfg := Config{Dir: testRepo(b), Topic: "How do tides shape coastlines?", Breadth: breadth, Depth: depth, MaxIterations: 5000,
		Model: "mock", ReviewModel: "mock", MockMode: true, Yes: true}
	deps := Deps{
		NewAgent: func(string) (agents.Agent, error) { return mock.New(mock.Options{}), nil },
		Reporter: ReporterFunc(func(e Event) {
			if e.Kind == EventPhaseDone {
				done(phaseCost{phase: e.Phase, overhead: e.Duration - e.AgentTime})
			}
		}),
	}
	if _, err := Research(context.Background(), cfg, deps); err != nil {
		b.Error(err)
	}
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

package phases

import (
	"testing"
	"time"
)

// BenchmarkPhaseGrowthB4D3 compares rgit's per-phase time over the last 10
// phases of a breadth 4 depth 3 mock session with its first 10. Goal:
// within 1.3x.
//
// The shared machine's load swings several-fold within the seconds a
// session takes, so the two are measured in the same seconds: a second
// session starts when the first has 10 phases left, and the two take
// turns, one phase each (pairedPhases). Five pairs an iteration; the
// figures are medians over all of them.
//
// last/first is the measure: any phase. The last 10 hold the
// session's four one-off phases (synthesize, final review, revise,
// complete), whose work is proportional to the report rather than to the
// phase (the citation gate and the links parse the whole report), and the
// first 10 the plan; ms/final-phases is the median of the four one-off
// phases. The research and review phases compare like with like, the work
// that repeats and would grow if a commit did work in proportion to the
// session; as a research commit does about twice a review's work (source
// records, progress file), a median over both kinds lands anywhere between
// the two, so each kind is compared with itself: research-last/first and
// review-last/first, by wall time and by the process's CPU time.
func BenchmarkPhaseGrowthB4D3(b *testing.B) {
	const window = 10
	total := len(mockPhases(b, 4, 3))
	var first, last, final []time.Duration
	kinds := []Phase{PhaseResearch, PhaseReview}
	wall := map[Phase][2][]time.Duration{}
	cpu := map[Phase][2][]time.Duration{}
	add := func(at int, ps []phaseCost) {
		for _, p := range ps {
			w, c := wall[p.phase], cpu[p.phase]
			w[at], c[at] = append(w[at], p.overhead), append(c[at], p.cpu)
			wall[p.phase], cpu[p.phase] = w, c
		}
	}
	for i := 0; i < b.N; i++ {
		for range 5 {
			late, early := pairedPhases(b, total, window)
			for _, p := range late {
				last = append(last, p.overhead)
				if p.phase != PhaseResearch && p.phase != PhaseReview {
					final = append(final, p.overhead)
				}
			}
			for _, p := range early {
				first = append(first, p.overhead)
			}
			add(0, early)
			add(1, late)
		}
	}
	ratio := func(name string, f, l []time.Duration) {
		if len(f) == 0 || len(l) == 0 {
			b.Fatalf("no %s phases to compare", name)
		}
		mf, ml := median(f), median(l)
		b.ReportMetric(float64(mf.Microseconds())/1000, "ms/"+name+"first10")
		b.ReportMetric(float64(ml.Microseconds())/1000, "ms/"+name+"last10")
		b.ReportMetric(float64(ml)/float64(mf), name+"last/first")
	}
	ratio("", first, last)
	for _, k := range kinds {
		ratio(string(k)+"-", wall[k][0], wall[k][1])
		ratio(string(k)+"-cpu-", cpu[k][0], cpu[k][1])
	}
	b.ReportMetric(float64(median(final).Microseconds())/1000, "ms/final-phases")
}

// pairedPhases runs two mock sessions of breadth 4 depth 3 (total phases
// each), the second starting when the first has window phases left, and
// makes them take turns while both run: one phase of the second, one of
// the first, and so on. It returns the first session's last window phases
// and the second's first window phases, each measured while the other
// session waited between two of its phases. A phase's cpu is the
// process's CPU time since the other session's phase before it.
func pairedPhases(b *testing.B, total, window int) (late, early []phaseCost) {
	b.Helper()
	startSecond := make(chan struct{})
	turnFirst, turnSecond := make(chan struct{}), make(chan struct{})
	firstDone := false // set before the first session hands over for the last time
	var cpu time.Duration
	mark := func(p phaseCost) phaseCost {
		now := processCPU()
		p.cpu, cpu = now-cpu, now
		return p
	}
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		n := 0
		runMock(b, 4, 3, func(p phaseCost) {
			n++
			switch {
			case n < total-window:
			case n == total-window:
				cpu = processCPU()
				close(startSecond)
				<-turnFirst
			case n < total:
				late = append(late, mark(p))
				turnSecond <- struct{}{}
				<-turnFirst
			default:
				late = append(late, mark(p))
				firstDone = true
				turnSecond <- struct{}{}
			}
		})
		if n != total {
			b.Errorf("the first session ran %d phases, want %d", n, total)
		}
	}()
	<-startSecond
	n := 0
	runMock(b, 4, 3, func(p phaseCost) {
		n++
		if n > window || firstDone {
			return
		}
		early = append(early, mark(p))
		turnFirst <- struct{}{}
		<-turnSecond
	})
	<-ended
	return late, early
}

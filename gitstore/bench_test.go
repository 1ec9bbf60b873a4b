package gitstore

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"testing"
	"time"
)

// benchWorkspace is a 50-file research workspace like a session's.
func benchWorkspace(tb testing.TB, dir string) {
	tb.Helper()
	for i := range 50 {
		sub := []string{"", "progress/", "sources/"}[i%3]
		writeFile(tb, filepath.Join(dir, fmt.Sprintf("%sfile%02d.md", sub, i)), fmt.Sprintf("# file %d\n\n%s", i, make([]byte, 2000)))
	}
}

// benchBranch makes a repository whose research/bench branch has n commits
// of a 50-file workspace, and returns the repo, workspace and open Store.
func benchBranch(b *testing.B, n int) (string, string, *Store) {
	b.Helper()
	repo := newRepo(b)
	ws := filepath.Join(repo, ".research", "bench")
	benchWorkspace(b, ws)
	s := open(b, repo)
	for i := range n {
		snapshotStep(b, s, ws, i, true)
	}
	return repo, ws, s
}

// snapshotStep changes one file of the workspace (when write is set) and
// snapshots it.
func snapshotStep(b *testing.B, s *Store, ws string, i int, write bool) {
	if write {
		writeFile(b, filepath.Join(ws, "state.json"), fmt.Sprintf("{\"step\": %d}\n", i))
	}
	_, err := s.Snapshot(context.Background(), SnapshotOptions{
		Branch: "research/bench", Mounts: []Mount{{Dir: ws, Tree: ".research/bench"}},
		Exclude: []string{".research/bench/research.lock.json"}, Message: fmt.Sprintf("step %d", i),
		Trailers: []Trailer{{"Rgit-Phase", "research"}},
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkSnapshot times one snapshot of a 50-file workspace with one
// changed file, on a branch that already has 10 or 1,000 commits.
func BenchmarkSnapshot(b *testing.B) {
	for _, depth := range []int{10, 1000} {
		b.Run(fmt.Sprintf("commits=%d", depth), func(b *testing.B) {
			_, ws, s := benchBranch(b, depth)
			for i := 0; b.Loop(); i++ {
				snapshotStep(b, s, ws, depth+i, true)
			}
		})
	}
}

// gitCommitRepo makes the baseline: a repository whose main branch has n
// commits of the 50-file workspace, tracked by git, and a function that runs
// `git add -A` and `git commit -q` in it and returns the CPU time the two git
// processes used.
func gitCommitRepo(b *testing.B, n int) (string, func(msg string) time.Duration) {
	repo, ws, _ := benchBranch(b, n)
	git(b, repo, "reset", "-q", "--hard", "research/bench")
	run := func(args ...string) time.Duration {
		cmd := gitCmd(repo, args...)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	return ws, func(msg string) time.Duration {
		return run("add", "-A") + run("commit", "-q", "-m", msg)
	}
}

// minRounds is the fewest interleaved rounds BenchmarkSnapshotVsGit takes
// its medians from.
const minRounds = 25

// sample collects wall and CPU times of one kind of operation.
type sample struct{ wall, cpu []time.Duration }

// BenchmarkSnapshotVsGit interleaves, in every iteration, one rgit snapshot
// 1,000 commits deep, one 10 commits deep and one git CLI commit 1,000 deep
// (in rotating order), so all three see the same machine load, and reports
// the median wall and CPU time of each and their ratios. Afterwards it
// repacks the 1,000-deep repository and reports its .git size beside the
// size `git gc` makes of it.
func BenchmarkSnapshotVsGit(b *testing.B) {
	deepRepo, deepWS, deep := benchBranch(b, 1000)
	_, shallowWS, shallow := benchBranch(b, 10)
	gitWS, gitCommit := gitCommitRepo(b, 1000)
	var sDeep, sShallow, sGit sample
	rgit := func(into *sample, s *Store, ws string, step int) {
		writeFile(b, filepath.Join(ws, "state.json"), fmt.Sprintf("{\"step\": %d}\n", step))
		start := time.Now()
		cpu := threadCPU(func() { snapshotStep(b, s, ws, step, false) })
		into.wall = append(into.wall, time.Since(start))
		into.cpu = append(into.cpu, cpu)
	}
	round := func(i int) {
		ops := []func(){
			func() { rgit(&sDeep, deep, deepWS, 1000+i) },
			func() { rgit(&sShallow, shallow, shallowWS, 10+i) },
			func() {
				writeFile(b, filepath.Join(gitWS, "state.json"), fmt.Sprintf("{\"step\": %d}\n", 1000+i))
				start := time.Now()
				cpu := gitCommit(fmt.Sprintf("step %d", i))
				sGit.wall = append(sGit.wall, time.Since(start))
				sGit.cpu = append(sGit.cpu, cpu)
			},
		}
		for k := range ops {
			ops[(i+k)%len(ops)]()
		}
	}
	i := 0
	for ; b.Loop(); i++ {
		round(i)
	}
	b.StopTimer()
	// A load spike can end b.Loop after one round; medians need more.
	for ; i < minRounds; i++ {
		round(i)
	}
	ms := func(d time.Duration) float64 { return d.Seconds() * 1e3 }
	ratio := func(a, b time.Duration) float64 { return float64(a) / float64(b) }
	dw, sw, gw := median(sDeep.wall), median(sShallow.wall), median(sGit.wall)
	dc, sc, gc := median(sDeep.cpu), median(sShallow.cpu), median(sGit.cpu)
	b.ReportMetric(ms(dw), "rgit@1000-ms")
	b.ReportMetric(ms(sw), "rgit@10-ms")
	b.ReportMetric(ms(gw), "git-ms")
	b.ReportMetric(ratio(dw, gw), "rgit/git")
	b.ReportMetric(ratio(dw, sw), "rgit@1000/rgit@10")
	if gc > 0 && sc > 0 {
		b.ReportMetric(ms(dc), "rgit@1000-cpu-ms")
		b.ReportMetric(ms(gc), "git-cpu-ms")
		b.ReportMetric(ratio(dc, gc), "rgit/git-cpu")
		b.ReportMetric(ratio(dc, sc), "rgit@1000/rgit@10-cpu")
	}

	if err := deep.Repack(context.Background()); err != nil {
		b.Fatal(err)
	}
	ours := dirSize(b, filepath.Join(deepRepo, ".git"))
	git(b, deepRepo, "gc", "-q")
	gcSize := dirSize(b, filepath.Join(deepRepo, ".git"))
	b.ReportMetric(float64(ours)/1024, "repacked-KiB")
	b.ReportMetric(float64(gcSize)/1024, "gc-KiB")
	b.ReportMetric(float64(ours)/float64(gcSize), "repacked/gc")
}

// median returns the middle duration.
func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

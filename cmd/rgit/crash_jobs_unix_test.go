//go:build unix

package main

import (
	"math/rand"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestCrashResumeJobs is TestCrashResume with calls in flight: a breadth 3
// depth 2 mock session with --jobs 4 killed with SIGKILL at 20 random
// moments (a random number of progress lines into a run, so kills land
// while several calls run and between commits) and resumed each time. It
// must complete with the plan and report of an uninterrupted --jobs 1
// run, lose no committed phase, and pass git fsck --strict.
func TestCrashResumeJobs(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	topic := "How do coral reefs recover from bleaching?"
	args := func(jobs string) []string {
		return []string{"research", "--mock-mode", "--breadth", "3", "--depth", "2", "--yes", "--jobs", jobs, "--name", "reefs", topic}
	}
	clean := newRepo(t)
	if out, err := rgitCmd(t, clean, args("1")...).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}
	wantPlan := gitOut(t, clean, "show", "research/reefs:.research/reefs/research_plan.md")
	wantReport := gitOut(t, clean, "show", "research/reefs:reports/reefs/report.md")

	crashed := newRepo(t)
	rng := rand.New(rand.NewSource(20261127))
	seen := map[string]bool{}
	for i := 0; i < 20; i++ {
		cmd := rgitCmd(t, crashed, args("4")...)
		w, err := watch(cmd)
		if err != nil {
			t.Fatal(err)
		}
		lines := 1 + rng.Intn(30)
		w.until(func(string) bool { lines--; return lines == 0 })
		_ = cmd.Process.Kill()
		_, _, _ = w.wait()
		if head, err := gitTry(crashed, "rev-parse", "--verify", "-q", "research/reefs"); err == nil {
			seen[strings.TrimSpace(head)] = true
		}
	}
	if out, err := rgitCmd(t, crashed, args("4")...).CombinedOutput(); err != nil {
		t.Fatalf("final resume: %v\n%s", err, out)
	}
	if got := gitOut(t, crashed, "show", "research/reefs:.research/reefs/research_plan.md"); got != wantPlan {
		t.Errorf("plan after crashes differs from an uninterrupted run:\n%s\nwant:\n%s", got, wantPlan)
	}
	if got := gitOut(t, crashed, "show", "research/reefs:reports/reefs/report.md"); got != wantReport {
		t.Errorf("report after crashes differs from an uninterrupted run:\n%s\nwant:\n%s", got, wantReport)
	}
	for h := range seen {
		if _, err := gitTry(crashed, "merge-base", "--is-ancestor", h, "research/reefs"); err != nil {
			t.Errorf("committed phase %s was lost", h)
		}
	}
	gitOut(t, crashed, "fsck", "--strict")
	if len(seen) < 5 {
		t.Errorf("only %d distinct heads observed across 20 kills", len(seen))
	}
}

// TestInterruptJobs stops a --jobs 4 run with SIGINT while three research
// calls hang at once: exit 130, the branch where the last commit left it,
// no lock left; a resume completes with the report of an uninterrupted
// run.
func TestInterruptJobs(t *testing.T) {
	topic := "Why do leaves change colour?"
	args := []string{"research", "--mock-mode", "--breadth", "3", "--depth", "0", "--jobs", "4", "--name", "leaves", topic}
	clean := newRepo(t)
	if out, err := rgitCmd(t, clean, args...).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}
	want := gitOut(t, clean, "show", "research/leaves:reports/leaves/report.md")

	dir := newRepo(t)
	cmd := rgitCmd(t, dir, args...)
	cmd.Env = append(cmd.Env, "RGIT_MOCK_FAIL=hang@research*all")
	w, err := watch(cmd)
	if err != nil {
		t.Fatal(err)
	}
	started := 0
	if !w.until(func(line string) bool {
		if strings.Contains(line, " research ") {
			started++
		}
		return started == 3
	}) {
		_, stderr, err := w.wait()
		t.Fatalf("rgit ended before three research calls started: %v\n%s", err, stderr)
	}
	before, _ := gitTry(dir, "rev-parse", "-q", "--verify", "research/leaves")
	_ = cmd.Process.Signal(syscall.SIGINT)
	_, stderr, err := w.wait()
	if code := exitStatus(err); code != exitCancelled {
		t.Fatalf("exit %d after SIGINT, want %d\n%s", code, exitCancelled, stderr)
	}
	if after, _ := gitTry(dir, "rev-parse", "-q", "--verify", "research/leaves"); before != after {
		t.Errorf("branch moved by the interrupted calls: %q -> %q", before, after)
	}
	if fileExists(filepath.Join(dir, ".research", "leaves", "research.lock.json")) {
		t.Error("lock left behind after SIGINT")
	}
	if out, err := rgitCmd(t, dir, "research", "--name", "leaves", "--resume").CombinedOutput(); err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	if got := gitOut(t, dir, "show", "research/leaves:reports/leaves/report.md"); got != want {
		t.Errorf("report after resume differs from an uninterrupted run")
	}
	gitOut(t, dir, "fsck", "--strict")
}

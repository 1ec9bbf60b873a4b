//go:build unix

package main

import (
	"math/rand"
	"os/exec"
	"strings"
	"testing"
)

// TestCrashResumeCouncil kills a slowed three-member mock council with
// SIGKILL at 15 random moments (a random number of progress lines into a
// run, while members work in parallel) and resumes each time. It must
// complete with the same report as an uninterrupted run, keep every
// commit any branch ever had at its head, and pass git fsck --strict.
func TestCrashResumeCouncil(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	args := []string{"research", "--council", "mock:alpha,mock:beta,mock:gamma", "--name", "tides", "How do tides work?"}
	branches := []string{"research/tides", "research/tides.mock-alpha", "research/tides.mock-beta", "research/tides.mock-gamma"}
	// A fixed clock makes the methodology's times, and so the report, exact.
	run := func(dir string) *exec.Cmd {
		cmd := rgitCmd(t, dir, args...)
		cmd.Env = append(cmd.Env, "RGIT_NOW="+scriptNow)
		return cmd
	}

	clean := newRepo(t)
	if out, err := run(clean).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}
	want := gitOut(t, clean, "show", "research/tides:reports/tides/report.md")

	crashed := newRepo(t)
	rng := rand.New(rand.NewSource(20261127))
	seen := map[string]string{} // commit -> the branch it was the head of
	for i := 0; i < 15; i++ {
		cmd := run(crashed)
		w, err := watch(cmd)
		if err != nil {
			t.Fatal(err)
		}
		lines := 1 + rng.Intn(14)
		w.until(func(string) bool { lines--; return lines == 0 })
		_ = cmd.Process.Kill()
		_, _, _ = w.wait()
		for _, b := range branches {
			if head, err := gitTry(crashed, "rev-parse", "--verify", "-q", b); err == nil {
				seen[strings.TrimSpace(head)] = b
			}
		}
	}
	if out, err := run(crashed).CombinedOutput(); err != nil {
		t.Fatalf("final resume: %v\n%s", err, out)
	}
	if got := gitOut(t, crashed, "show", "research/tides:reports/tides/report.md"); got != want {
		t.Errorf("report after crashes differs from an uninterrupted run:\n%s\nwant:\n%s", got, want)
	}
	for h, b := range seen {
		if _, err := gitTry(crashed, "merge-base", "--is-ancestor", h, b); err != nil {
			t.Errorf("commit %s of %s was lost", h, b)
		}
	}
	gitOut(t, crashed, "fsck", "--strict")
	t.Logf("%d distinct heads observed across kills", len(seen))
}

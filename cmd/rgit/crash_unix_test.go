//go:build unix

package main

import (
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCrashResume kills rgit with SIGKILL at 20 random moments of a
// breadth 2 depth 2 mock session and resumes each time. A moment is a
// random number of progress lines into a run: right after a phase's start
// line the agent is busy (RGIT_MOCK_DELAY), right after a done line the
// next phase is being prepared. The session must
// complete with the same plan and report as an uninterrupted run, lose no
// committed phase, and leave a repository git fsck --strict accepts.
func TestCrashResume(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	topic := "How do coral reefs recover from bleaching?"
	args := []string{"research", "--mock-mode", "--breadth", "2", "--depth", "2", "--name", "reefs", topic}

	clean := newRepo(t)
	if out, err := rgitCmd(t, clean, args...).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}
	wantPlan := gitOut(t, clean, "show", "research/reefs:.research/reefs/research_plan.md")
	wantReport := gitOut(t, clean, "show", "research/reefs:reports/reefs/report.md")

	crashed := newRepo(t)
	rng := rand.New(rand.NewSource(20261121))
	seen := map[string]bool{} // every commit ever at the branch head
	for i := 0; i < 20; i++ {
		cmd := rgitCmd(t, crashed, args...)
		w, err := watch(cmd)
		if err != nil {
			t.Fatal(err)
		}
		lines := 1 + rng.Intn(6)
		w.until(func(string) bool { lines--; return lines == 0 })
		_ = cmd.Process.Kill()
		_, _, _ = w.wait()
		if head, err := gitTry(crashed, "rev-parse", "--verify", "-q", "research/reefs"); err == nil {
			seen[strings.TrimSpace(head)] = true
		}
	}
	if out, err := rgitCmd(t, crashed, args...).CombinedOutput(); err != nil {
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
	if len(seen) < 2 {
		t.Logf("only %d distinct heads observed across kills", len(seen))
	}
}

func newRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	gitOut(t, dir, "init", "-q", "-b", "main")
	gitOut(t, dir, "commit", "-q", "--allow-empty", "-m", "start")
	return dir
}

func rgitCmd(t *testing.T, dir string, args ...string) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, args...)
	cmd.Args[0] = "rgit"
	cmd.Dir = dir
	cmd.Env = append(gitEnv(dir), "RGIT_TEST_AS_RGIT=1", "RGIT_MOCK_DELAY=15ms")
	return cmd
}

func gitEnv(dir string) []string {
	return append(os.Environ(), "HOME="+filepath.Dir(dir), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com")
}

func gitTry(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv(dir)
	out, err := cmd.Output()
	return string(out), err
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gitTry(dir, args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

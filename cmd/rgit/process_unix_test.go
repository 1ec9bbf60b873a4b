//go:build unix

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInterruptEachPhase stops rgit with SIGINT while its agent is busy in
// each phase: exit 130, nothing half-done committed, the lock released, the
// resume command printed; then a resume completes the session with the
// same report as an uninterrupted run.
func TestInterruptEachPhase(t *testing.T) {
	topic := "Why do leaves change colour?"
	args := []string{"research", "--mock-mode", "--breadth", "2", "--depth", "1", "--name", "leaves", topic}
	clean := newRepo(t)
	if out, err := rgitCmd(t, clean, args...).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}
	want := gitOut(t, clean, "show", "research/leaves:reports/leaves/report.md")

	for _, phase := range []string{"plan", "research", "review", "synthesize", "final-review"} {
		t.Run(phase, func(t *testing.T) {
			dir := newRepo(t)
			cmd := rgitCmd(t, dir, args...)
			cmd.Env = append(cmd.Env, "RGIT_MOCK_FAIL=hang@"+phase+"*all")
			w, err := watch(cmd)
			if err != nil {
				t.Fatal(err)
			}
			// A phase's start line is printed just before its agent call,
			// which hangs: the run is inside the phase, holding the lock.
			if !w.until(func(line string) bool { return strings.Contains(line, " "+phase+" ") }) {
				_, stderr, err := w.wait()
				t.Fatalf("rgit ended before the %s phase: %v\n%s", phase, err, stderr)
			}
			lock := filepath.Join(dir, ".research", "leaves", "research.lock.json")
			if !fileExists(lock) {
				t.Fatal("no lock inside a phase")
			}
			before, _ := gitTry(dir, "rev-parse", "-q", "--verify", "research/leaves")
			_ = cmd.Process.Signal(syscall.SIGINT)
			_, stderr, err := w.wait()
			if code := exitStatus(err); code != exitCancelled {
				t.Fatalf("exit %d after SIGINT, want %d\n%s", code, exitCancelled, stderr)
			}
			if !strings.Contains(stderr, "rgit research --name leaves --resume") {
				t.Errorf("no resume command in:\n%s", stderr)
			}
			if fileExists(lock) {
				t.Error("lock left behind after SIGINT")
			}
			after, _ := gitTry(dir, "rev-parse", "-q", "--verify", "research/leaves")
			if before != after {
				t.Errorf("branch moved during the interrupted %s phase: %q -> %q", phase, before, after)
			}
			if out, err := rgitCmd(t, dir, "research", "--name", "leaves", "--resume").CombinedOutput(); err != nil {
				t.Fatalf("resume: %v\n%s", err, out)
			}
			if got := gitOut(t, dir, "show", "research/leaves:reports/leaves/report.md"); got != want {
				t.Errorf("report after resume differs from an uninterrupted run")
			}
			gitOut(t, dir, "fsck", "--strict")
		})
	}
}

// TestLock: a live lock stops a second run with exit 3 naming its owner; a
// dead owner's lock is removed with a notice; --force-resume says whose
// lock it removed.
func TestLock(t *testing.T) {
	dir := newRepo(t)
	args := []string{"research", "--mock-mode", "--breadth", "1", "--depth", "0", "--name", "locked", "Is it locked?"}
	host, _ := os.Hostname()
	ws := filepath.Join(dir, ".research", "locked")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	writeLock := func(pid int) {
		now := time.Now().UTC()
		data, _ := json.Marshal(map[string]any{"pid": pid, "host": host, "token": "t", "started": now.Add(-time.Minute), "updated": now})
		if err := os.WriteFile(filepath.Join(ws, "research.lock.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeLock(os.Getpid()) // alive: this test process
	out, err := rgitCmd(t, dir, args...).CombinedOutput()
	if code := exitStatus(err); code != exitLocked {
		t.Fatalf("exit %d with a live lock, want %d\n%s", code, exitLocked, out)
	}
	if !strings.Contains(string(out), "locked by pid") || !strings.Contains(string(out), host) {
		t.Errorf("lock message does not name its owner:\n%s", out)
	}
	if _, err := gitTry(dir, "rev-parse", "-q", "--verify", "research/locked"); err == nil {
		t.Error("a locked-out run created the session branch")
	}

	dead := exec.Command("true")
	_ = dead.Run()
	writeLock(dead.Process.Pid)
	out, err = rgitCmd(t, dir, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("stale lock not removed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "removing stale lock") {
		t.Errorf("no notice about the stale lock:\n%s", out)
	}

	writeLock(os.Getpid())
	out, err = rgitCmd(t, dir, "research", "--name", "locked", "--force-resume").CombinedOutput()
	if err != nil {
		t.Fatalf("--force-resume: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "removing lock of pid") {
		t.Errorf("--force-resume did not say whose lock it removed:\n%s", out)
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestCancel: `rgit cancel` stops a running session, which exits 130 and
// stays resumable.
func TestCancel(t *testing.T) {
	dir := newRepo(t)
	cmd := rgitCmd(t, dir, "research", "--mock-mode", "--breadth", "1", "--depth", "0", "--name", "stopme", "Can it be stopped?")
	cmd.Env = append(cmd.Env, "RGIT_MOCK_FAIL=hang@research*all")
	w, err := watch(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if !w.until(func(line string) bool { return strings.Contains(line, " research ") }) {
		t.Fatal("rgit ended before the research phase")
	}
	out, err := rgitCmd(t, dir, "cancel", "--name", "stopme").CombinedOutput()
	if err != nil {
		t.Fatalf("cancel: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "asked pid") {
		t.Errorf("cancel said: %s", out)
	}
	if _, stderr, err := w.wait(); exitStatus(err) != exitCancelled {
		t.Fatalf("cancelled run exit %d, want %d\n%s", exitStatus(err), exitCancelled, stderr)
	}
	out, err = rgitCmd(t, dir, "cancel", "--name", "stopme").CombinedOutput()
	if code := exitStatus(err); code != exitUsage || !strings.Contains(string(out), "not running") {
		t.Errorf("cancel of a stopped session: exit %d\n%s", code, out)
	}
	if out, err := rgitCmd(t, dir, "research", "--name", "stopme", "--resume").CombinedOutput(); err != nil {
		t.Fatalf("resume after cancel: %v\n%s", err, out)
	}
}

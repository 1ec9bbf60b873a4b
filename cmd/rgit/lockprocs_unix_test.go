//go:build unix

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestConcurrentStartsProcesses starts one session from 8 rgit processes
// at once. The one that gets the lock hangs in its plan phase (a mock
// agent that never answers); the other seven must exit 3 naming that
// process's pid and this host, and the branch gets one start commit. The
// goroutine version, 200 trials under the race detector, is
// phases.TestLockStress; this one checks real processes and exit statuses.
func TestConcurrentStartsProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 80 processes")
	}
	const starts, trials = 8, 10
	host, _ := os.Hostname()
	dir := newRepo(t)
	for i := range trials {
		name := fmt.Sprintf("p%02d", i)
		cmds := make([]*exec.Cmd, starts)
		outs := make([]*bytes.Buffer, starts)
		done := make(chan int, starts)
		for j := range cmds {
			cmds[j] = rgitCmd(t, dir, "research", "--mock-mode", "--breadth", "1", "--depth", "0", "--name", name, "Why?")
			cmds[j].Env = append(cmds[j].Env, "RGIT_MOCK_FAIL=hang@plan*all")
			outs[j] = &bytes.Buffer{}
			cmds[j].Stdout, cmds[j].Stderr = outs[j], outs[j]
			if err := cmds[j].Start(); err != nil {
				t.Fatal(err)
			}
			go func() { _ = cmds[j].Wait(); done <- j }()
		}
		losers := map[int]bool{}
		for len(losers) < starts-1 {
			j := <-done
			if code := cmds[j].ProcessState.ExitCode(); code != exitLocked {
				t.Fatalf("trial %d: a start exited %d, want %d:\n%s", i, code, exitLocked, outs[j])
			}
			losers[j] = true
		}
		winner := -1
		for j := range cmds {
			if !losers[j] {
				winner = j
			}
		}
		want := fmt.Sprintf("rgit: error: session is locked by pid %d on %s (", cmds[winner].Process.Pid, host)
		for j := range losers {
			if !strings.Contains(outs[j].String(), want) {
				t.Errorf("trial %d: a loser does not name the winner %q:\n%s", i, want, outs[j])
			}
		}
		// The losers can all exit while the winner, lock in hand, is still
		// writing its start commit: kill it only once the branch exists.
		waitForRef(t, dir, "refs/heads/research/"+name)
		_ = cmds[winner].Process.Kill()
		<-done
		if n := strings.TrimSpace(gitOut(t, dir, "rev-list", "--count", "main..research/"+name)); n != "1" {
			t.Errorf("trial %d: %s commits on research/%s, want the one start commit", i, n, name)
		}
	}
}

// waitForRef polls until ref exists in dir, on a ticker with a deadline.
func waitForRef(t *testing.T, dir, ref string) {
	t.Helper()
	deadline := time.After(time.Minute)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		cmd := exec.Command("git", "rev-parse", "--verify", "--quiet", ref)
		cmd.Dir = dir
		if cmd.Run() == nil {
			return
		}
		select {
		case <-deadline:
			t.Fatalf("waited a minute for %s", ref)
		case <-tick.C:
		}
	}
}

package phases

import (
	"encoding/json"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/phases/layout"
)

// TestLastRun: the recorded outcome, corrected by the lock: a live lock is
// a running run whatever the file says, and a run recorded as running
// without a live lock was killed.
func TestLastRun(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	host, _ := os.Hostname()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("no true command")
	}
	one := 1
	live := &LockInfo{PID: os.Getpid(), Host: host, Token: "T2", Started: now, Updated: now}
	tests := []struct {
		name    string
		outcome *Outcome
		lock    *LockInfo
		ok      bool
		state   RunState
		killed  bool
	}{
		{"nothing recorded", nil, nil, false, "", false},
		{"running, its lock live", &Outcome{State: RunRunning, Token: "T2", PID: os.Getpid()}, live, true, RunRunning, false},
		{"running, no lock", &Outcome{State: RunRunning, Token: "T1", PID: dead.Process.Pid, Host: host}, nil, true, RunStopped, true},
		{"running, its lock stale", &Outcome{State: RunRunning, Token: "T1", PID: dead.Process.Pid, Host: host},
			&LockInfo{PID: dead.Process.Pid, Host: host, Token: "T1", Started: now, Updated: now}, true, RunStopped, true},
		{"running, lock released, still writing its outcome", &Outcome{State: RunRunning, Token: "T2", PID: os.Getpid(), Host: host}, nil, true, RunRunning, false},
		{"failed", &Outcome{State: RunFailed, ExitStatus: &one}, nil, true, RunFailed, false},
		{"failed, a new run holds the lock", &Outcome{State: RunFailed, Token: "T1", ExitStatus: &one}, live, true, RunRunning, false},
		{"a live lock, no outcome yet", nil, live, true, RunRunning, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lay := layout.New(t.TempDir(), "s")
			if err := os.MkdirAll(lay.Workspace(), 0o755); err != nil {
				t.Fatal(err)
			}
			if tt.outcome != nil {
				if err := WriteOutcome(lay, *tt.outcome); err != nil {
					t.Fatal(err)
				}
			}
			if tt.lock != nil {
				data, _ := json.Marshal(tt.lock)
				if err := os.WriteFile(lay.Lock(), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			o, ok, err := lastRun(lay, now)
			if err != nil || ok != tt.ok || o.State != tt.state {
				t.Fatalf("lastRun = %+v, %v, %v; want ok %v state %q", o, ok, err, tt.ok, tt.state)
			}
			if killed := o.ExitStatus == nil && o.Error != "" && o.Hint == "resume it with: rgit research --name s --resume"; killed != tt.killed {
				t.Errorf("killed %v, want %v: %+v", killed, tt.killed, o)
			}
		})
	}
}

// TestOutcomeRoundTrip: what WriteOutcome writes, ReadOutcome reads, and
// no temporary file is left.
func TestOutcomeRoundTrip(t *testing.T) {
	lay := layout.New(t.TempDir(), "s")
	if err := os.MkdirAll(lay.Workspace(), 0o755); err != nil {
		t.Fatal(err)
	}
	zero := 0
	fin := time.Date(2026, 1, 1, 0, 1, 0, 0, time.UTC)
	in := Outcome{State: RunDone, ExitStatus: &zero, Summary: "1 of 1", PID: 7, Host: "h", Token: "T", Detached: true,
		Started: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Finished: &fin}
	if err := WriteOutcome(lay, in); err != nil {
		t.Fatal(err)
	}
	out, ok, err := ReadOutcome(lay)
	if err != nil || !ok || out.State != in.State || *out.ExitStatus != 0 || !out.Finished.Equal(fin) || out.Summary != in.Summary || !out.Detached {
		t.Errorf("read %+v %v %v", out, ok, err)
	}
	if _, err := os.Stat(lay.OutcomeTemp()); err == nil {
		t.Error("temporary file left behind")
	}
}

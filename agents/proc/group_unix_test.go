//go:build unix

package proc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}

func TestRunSIGINTFirst(t *testing.T) {
	c := helperCmd(t, "sigint")
	c.Grace = 10 * time.Second // SIGINT alone must end it
	// Cancel once the helper has its handler installed ("ready"), so the
	// test does not depend on how fast it starts.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c.OnLine = func(l []byte) {
		if string(l) == "ready" {
			cancel()
		}
	}
	res, err := Run(ctx, c)
	if !errors.Is(err, context.Canceled) || !res.Canceled {
		t.Fatalf("err = %v canceled=%v, want canceled", err, res.Canceled)
	}
	if res.ExitCode != 130 || !strings.Contains(string(res.Stdout), "interrupted") {
		t.Errorf("exit %d stdout %q: the helper did not see SIGINT", res.ExitCode, res.Stdout)
	}
}

// A leader that ignores SIGINT and SIGTERM and a grandchild holding stdout:
// the deadline (or ctx) must end both with SIGKILL to the group, and the
// daemon case shows leftovers die when the leader exits on its own.
func TestRunKillsProcessGroup(t *testing.T) {
	tests := []struct {
		name    string
		role    string
		timeout time.Duration
		cancel  bool
		wantErr error
	}{
		// Generous: the race-built helper must start and spawn its grandchild
		// before the deadline for the test to prove anything.
		{"deadline", "hang", 3 * time.Second, false, ErrDeadline},
		{"cancel", "hang", 0, true, context.Canceled},
		{"leader exits", "daemon", 0, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pidfile := filepath.Join(t.TempDir(), "pid")
			c := helperCmd(t, tt.role, "PROC_PIDFILE="+pidfile)
			c.Timeout = tt.timeout
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			c.OnLine = func(l []byte) {
				if string(l) == "started" && tt.cancel {
					cancel()
				}
			}
			res, err := Run(ctx, c)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if tt.wantErr != nil && res.ExitCode != -1 {
				t.Errorf("exit = %d, want -1 (killed)", res.ExitCode)
			}
			b, rerr := os.ReadFile(pidfile)
			if rerr != nil {
				t.Fatal(rerr)
			}
			pid, _ := strconv.Atoi(string(b))
			// Kill is asynchronous only until the kernel delivers SIGKILL:
			// poll with a deadline rather than assert on timing.
			tick := time.NewTicker(10 * time.Millisecond)
			defer tick.Stop()
			for deadline := time.Now().Add(2 * time.Second); alive(pid) && time.Now().Before(deadline); {
				<-tick.C
			}
			if alive(pid) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("grandchild %d survived", pid)
			}
		})
	}
}

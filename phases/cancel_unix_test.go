//go:build unix

package phases

import (
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"github.com/rgit-dev/rgit/phases/layout"
)

// Cancel signals the process that holds a live lock.
func TestCancelSignals(t *testing.T) {
	dir := sessionRepo(t)
	victim := exec.Command("cat") // blocks on its standard input until signalled
	if _, err := victim.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := victim.Start(); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	data, _ := json.Marshal(LockInfo{PID: victim.Process.Pid, Host: host, Updated: testNow})
	if err := os.WriteFile(layout.New(dir, "why").Lock(), data, 0o644); err != nil {
		t.Fatal(err)
	}
	info, err := Inspector{Dir: dir, Clock: FixedClock(testNow)}.Cancel("why")
	if err != nil || info.PID != victim.Process.Pid {
		t.Fatalf("Cancel = %+v, %v", info, err)
	}
	if err := victim.Wait(); err == nil {
		t.Error("the lock holder was not signalled")
	}
	if pidAlive(victim.Process.Pid) {
		t.Error("pidAlive says a reaped process lives")
	}
	if !pidAlive(os.Getpid()) {
		t.Error("pidAlive says this process is dead")
	}
}

package phases

import (
	"fmt"
	"os"

	"github.com/rgit-dev/rgit/phases/layout"
)

// Cancel asks the process running a session to stop: it is terminated
// (SIGTERM on Unix), kills its agent, commits nothing half-done and exits.
func (in Inspector) Cancel(name string) (LockInfo, error) {
	if err := ValidateName(name); err != nil {
		return LockInfo{}, err
	}
	s, err := in.open()
	if err != nil {
		return LockInfo{}, err
	}
	root := s.Root()
	s.Close()
	info, ok, err := ReadLock(layout.New(root, name))
	if err != nil {
		return LockInfo{}, err
	}
	host, _ := os.Hostname()
	if !ok {
		return LockInfo{}, badInput("run 'rgit status --name "+name+"' to see its state", "session %q is not running", name)
	}
	if info.Host != host {
		return info, fmt.Errorf("session %q runs on %s (pid %d); cancel it there", name, info.Host, info.PID)
	}
	if stale, why := info.stale(host, in.clock().Now()); stale {
		return info, badInput("resume it with --force-resume", "session %q is not running (%s)", name, why)
	}
	if err := terminate(info.PID); err != nil {
		return info, fmt.Errorf("signal pid %d: %w", info.PID, err)
	}
	return info, nil
}

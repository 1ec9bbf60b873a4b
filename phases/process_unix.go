//go:build unix

package phases

import (
	"errors"
	"syscall"
)

// pidAlive says whether a process with this pid exists here. A process we
// may not signal still exists.
func pidAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// terminate asks a running rgit to stop: SIGTERM, which it turns into a
// cancellation (it kills its agent, commits nothing half-done and exits 130).
func terminate(pid int) error {
	return syscall.Kill(pid, syscall.SIGTERM)
}

package phases

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user + system) the process has used so far,
// which machine load inflates far less than wall time.
func processCPU() time.Duration {
	var r syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &r)
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

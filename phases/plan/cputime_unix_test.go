//go:build unix

package plan

import "syscall"

// cpuTime is the process's user plus system CPU time in nanoseconds. On a
// shared machine it is steadier than wall time, which includes waiting for
// a CPU.
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

package gitstore

import (
	"runtime"
	"syscall"
	"time"
)

// threadCPU runs f on one locked OS thread and returns the CPU time (user +
// system) that thread spent, which machine load inflates far less than wall
// time.
func threadCPU(f func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var before, after syscall.Rusage
	const rusageThread = 1 // RUSAGE_THREAD
	syscall.Getrusage(rusageThread, &before)
	f()
	syscall.Getrusage(rusageThread, &after)
	return rusageTime(after) - rusageTime(before)
}

// rusageTime sums user and system time.
func rusageTime(r syscall.Rusage) time.Duration {
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

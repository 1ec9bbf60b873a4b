//go:build unix

package main

import (
	"errors"
	"syscall"
)

func killHard(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }

// processExists is false once the process is gone (reaped: a zombie
// still counts, as it does for rgit's own lock check).
func processExists(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

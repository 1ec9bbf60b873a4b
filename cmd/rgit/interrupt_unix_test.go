//go:build unix

package main

import (
	"os"
	"syscall"
)

// interrupt sends what Ctrl-C sends.
func interrupt(p *os.Process) { _ = p.Signal(syscall.SIGINT) }

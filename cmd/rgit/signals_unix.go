//go:build unix

package main

import (
	"os"
	"syscall"
)

// stopSignals cancel a run: Ctrl-C, and SIGTERM from `rgit cancel`.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

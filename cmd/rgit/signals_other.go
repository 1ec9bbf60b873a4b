//go:build !unix

package main

import "os"

// stopSignals cancel a run: Ctrl-C (or Ctrl-Break). `rgit cancel` cannot
// signal another process here; it ends it instead (see phases.Inspector.Cancel).
var stopSignals = []os.Signal{os.Interrupt}

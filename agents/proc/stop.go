package proc

import (
	"os"
	"time"
)

// step is one stage of ending a process group, mildest first.
type step int

const (
	// interrupt asks the group to stop (SIGINT): the CLIs finish the turn
	// cleanly on it.
	interrupt step = iota
	// terminate tells it to stop (SIGTERM).
	terminate
	// kill ends it without asking (SIGKILL).
	kill
)

// escalate interrupts the group, then terminates it, then kills it,
// waiting grace between them, and returns once the leader has been reaped.
func escalate(pgid int, waited <-chan error, grace time.Duration) {
	for _, s := range []step{interrupt, terminate} {
		signalGroup(pgid, s)
		t := time.NewTimer(grace)
		select {
		case <-waited:
			t.Stop()
			return
		case <-t.C:
		}
	}
	signalGroup(pgid, kill)
	<-waited
}

// drain waits for both pipe readers. A process that left the group (setsid)
// may still hold a pipe open; after grace the read ends are closed so the
// readers return anyway.
func drain(readers <-chan struct{}, grace time.Duration, files ...*os.File) {
	t := time.NewTimer(grace)
	defer t.Stop()
	for n := 0; n < 2; n++ {
		select {
		case <-readers:
		case <-t.C:
			for _, f := range files {
				f.Close()
			}
			<-readers
		}
	}
}

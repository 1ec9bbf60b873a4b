//go:build unix

package proc

import (
	"os/exec"
	"syscall"
)

// newGroup makes cmd the leader of a new process group, so that signals
// reach everything it starts (shells, servers, subagents) at once.
func newGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends s's signal to the group led by pgid.
func signalGroup(pgid int, s step) {
	sig := [...]syscall.Signal{interrupt: syscall.SIGINT, terminate: syscall.SIGTERM, kill: syscall.SIGKILL}[s]
	_ = syscall.Kill(-pgid, sig)
}

// killLeftovers kills what the leader left running in its group after it
// exited. A group id is not reused while any member lives, so this never
// hits another process.
func killLeftovers(pgid int) {
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}

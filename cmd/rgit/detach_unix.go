//go:build unix

package main

import (
	"os"
	"os/exec"
	"syscall"
)

// detachProcess makes cmd a session leader (setsid: its own session and
// process group, no controlling terminal), so that neither the terminal
// closing nor a signal to the caller's process group reaches it, and
// hands it the readiness pipe as fd 3.
func detachProcess(cmd *exec.Cmd, ready *os.File) (marker string) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.ExtraFiles = []*os.File{ready}
	return "3"
}

// openReady opens the readiness pipe the parent passed; the agents and git
// processes this run starts must not inherit it.
func openReady(h uintptr) *os.File {
	syscall.CloseOnExec(int(h))
	return os.NewFile(h, "rgit-ready")
}

// redirectStdio points standard output and error at the null device.
func redirectStdio() {
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer null.Close()
	for _, fd := range []int{1, 2} {
		_ = dup2(int(null.Fd()), fd)
	}
}

// killDetached kills a child that never started, with its process group.
func killDetached(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
}

//go:build windows

package main

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// Process creation flags: a new process group (Ctrl-C to the caller's
// console does not reach it) without a console of its own.
const (
	createNewProcessGroup = 0x00000200
	detachedProcess       = 0x00000008
)

// detachProcess starts cmd in its own process group, detached from the
// console, and lets it inherit the readiness pipe, whose handle is the
// marker.
func detachProcess(cmd *exec.Cmd, ready *os.File) (marker string) {
	h := syscall.Handle(ready.Fd())
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: createNewProcessGroup | detachedProcess,
		AdditionalInheritedHandles: []syscall.Handle{h}}
	return strconv.FormatUint(uint64(h), 10)
}

func openReady(h uintptr) *os.File { return os.NewFile(h, "rgit-ready") }

// redirectStdio: on Windows a write to a pipe nobody reads fails without
// stopping the process, so standard output and error are left as they are.
func redirectStdio() {}

func killDetached(p *os.Process) { _ = p.Kill() }

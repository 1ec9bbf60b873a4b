//go:build windows

package main

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// Process creation flags. CREATE_NEW_PROCESS_GROUP: Ctrl-C and Ctrl-Break
// in the caller's console do not reach the session. CREATE_NO_WINDOW: the
// session gets a console of its own that has no window, so closing the
// caller's terminal (CTRL_CLOSE_EVENT goes to every process attached to
// that console) does not end it. DETACHED_PROCESS would also leave the
// caller's console, but with no console at all: every console program
// the session then starts (git, node for the agent CLIs) would get a new,
// visible console window of its own, one flashing up per git call. With
// CREATE_NO_WINDOW they inherit the hidden one.
const (
	createNewProcessGroup = 0x00000200
	createNoWindow        = 0x08000000
)

// detachProcess starts cmd in its own process group on a console of its
// own without a window, and lets it inherit the readiness pipe, whose
// handle is the marker. os.Pipe's handles are inheritable, as
// AdditionalInheritedHandles needs, and Go passes the child only the
// handles it lists (PROC_THREAD_ATTRIBUTE_HANDLE_LIST), so the read end
// stays here; the child's own children inherit nothing but what their
// exec.Cmd lists, so no other process holds the write end open.
func detachProcess(cmd *exec.Cmd, ready *os.File) (marker string) {
	h := syscall.Handle(ready.Fd())
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: createNewProcessGroup | createNoWindow,
		AdditionalInheritedHandles: []syscall.Handle{h}}
	return strconv.FormatUint(uint64(h), 10)
}

func openReady(h uintptr) *os.File { return os.NewFile(h, "rgit-ready") }

// redirectStdio: on Windows a write to a pipe nobody reads fails without
// stopping the process, so standard output and error are left as they are.
func redirectStdio() {}

func killDetached(p *os.Process) { _ = p.Kill() }

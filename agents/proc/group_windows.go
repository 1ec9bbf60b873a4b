//go:build windows

package proc

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// Windows has no signals. Its nearest equivalents, used here:
//
//   - interrupt: CTRL_BREAK_EVENT to the new console process group that
//     the leader heads (console programs treat it like Ctrl-C; it does
//     not arrive when rgit has no console);
//   - terminate: `taskkill /T /PID`, a polite close of the tree;
//   - kill: `taskkill /T /F /PID`, which ends the leader and every process
//     it started, found by parent pid; Process.Kill when taskkill fails.
//
// A tree is found by parent pids only while the leader lives: what the
// leader left running after it exited is not killed (a Job Object would
// do that), and once the leader is reaped its pid may belong to another
// process, so killLeftovers does nothing.
const ctrlBreakEvent = 1

var generateConsoleCtrlEvent = syscall.NewLazyDLL("kernel32.dll").NewProc("GenerateConsoleCtrlEvent")

func newGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

func signalGroup(pid int, s step) {
	switch s {
	case interrupt:
		_, _, _ = generateConsoleCtrlEvent.Call(ctrlBreakEvent, uintptr(pid))
	case terminate:
		_ = exec.Command("taskkill", "/T", "/PID", strconv.Itoa(pid)).Run()
	case kill:
		if exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(pid)).Run() != nil {
			if p, err := os.FindProcess(pid); err == nil {
				_ = p.Kill()
			}
		}
	}
}

func killLeftovers(int) {}

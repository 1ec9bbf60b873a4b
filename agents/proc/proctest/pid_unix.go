//go:build unix

package proctest

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"syscall"
)

func alive(pid int) bool {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		// No procfs (macOS): signal 0 tells whether the pid exists; a
		// zombie counts as alive here, so the caller's polling waits for
		// its reaping by init.
		return syscall.Kill(pid, 0) == nil
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}

//go:build windows

package proctest

import "os"

// alive: FindProcess opens the process, which fails once it is gone and
// no one holds a handle to it.
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}

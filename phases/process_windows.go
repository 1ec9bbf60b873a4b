//go:build windows

package phases

import "os"

// pidAlive says whether a process with this pid exists here. On Windows,
// os.FindProcess opens the process (OpenProcess), which fails when there
// is none; any other answer is taken as alive, which errs on the safe
// side: a lock is then removed only by age or --force-resume.
func pidAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}

// terminate stops a running rgit. Windows cannot deliver SIGTERM to another
// console process, so it is killed; its session stays resumable, since
// every phase is committed whole or not at all, and the next run removes
// the dead run's lock.
func terminate(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	defer p.Release()
	return p.Kill()
}

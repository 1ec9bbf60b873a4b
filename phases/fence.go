package phases

import "fmt"

// LockLostError: this run's session lock was taken over (--force-resume by
// another run, or removed as stale), so this run may not commit: it stops
// its agents and ends without moving the session branch. cmd maps it to
// the "session locked" status, like a lock that could not be taken.
type LockLostError struct {
	Name string
	By   LockInfo // the lock found instead; zero when there is none
	Gone bool     // no lock file at all
}

func (e *LockLostError) Error() string {
	if e.Gone {
		return fmt.Sprintf("session %s lost its lock (research.lock.json was removed); this run stopped without committing", e.Name)
	}
	return fmt.Sprintf("session %s was taken over by pid %d on %s; this run stopped without committing", e.Name, e.By.PID, e.By.Host)
}

// Is makes errors.Is(err, ErrLocked) true.
func (e *LockLostError) Is(target error) bool { return target == ErrLocked }

// Hint says where the session went on.
func (e *LockLostError) Hint() string {
	return fmt.Sprintf("the run holding the lock goes on; see 'rgit status --name %s'", e.Name)
}

// owns says whether a lock file is this run's. Token and pid and host:
// under a fixed clock two runs share a token.
func (l *lock) owns(info LockInfo) bool {
	return info.Token == l.info.Token && info.PID == l.info.PID && info.Host == l.info.Host
}

// fence is the Guard of every commit and merge of the run, called under the
// store lock right before the branch moves: the lock file must still be
// this run's. When it is not, lost is told (the run cancels its agents)
// and the move is refused.
func (l *lock) fence() error {
	info, ok, err := ReadLock(l.lay)
	if err != nil {
		return err
	}
	if ok && l.owns(info) {
		return nil
	}
	lost := &LockLostError{Name: l.lay.Name(), By: info, Gone: !ok}
	if l.lost != nil {
		l.lost(lost)
	}
	return lost
}

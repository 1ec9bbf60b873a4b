package phases

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/rgit-dev/rgit/phases/layout"
)

// staleAfter: a lock not refreshed for this long belongs to a dead run.
const staleAfter = 60 * time.Minute

// refreshEvery keeps a live lock well inside staleAfter.
const refreshEvery = 30 * time.Second

// LockInfo is research.lock.json.
type LockInfo struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Token   string    `json:"token"`
	Started time.Time `json:"started"`
	Updated time.Time `json:"updated"`
}

// LockedError says who holds a live lock, as of Now.
type LockedError struct {
	Info LockInfo
	Now  time.Time
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("session is locked by pid %d on %s (started %s ago, refreshed %s ago)",
		e.Info.PID, e.Info.Host, e.Now.Sub(e.Info.Started).Round(time.Second), e.Now.Sub(e.Info.Updated).Round(time.Second))
}

// Is makes errors.Is(err, ErrLocked) true.
func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// lock is a held session lock.
type lock struct {
	lay   layout.Layout
	clock Clock
	info  LockInfo
	stop  chan struct{}
	done  chan struct{}
}

// ReadLock reads a session's lock file; ok is false when there is none.
func ReadLock(lay layout.Layout) (LockInfo, bool, error) {
	data, err := os.ReadFile(lay.Lock())
	if errors.Is(err, os.ErrNotExist) {
		return LockInfo{}, false, nil
	}
	if err != nil {
		return LockInfo{}, false, fmt.Errorf("read lock: %w", err)
	}
	var info LockInfo
	if err := json.Unmarshal(data, &info); err != nil {
		// A torn or foreign file holds no live owner.
		return LockInfo{}, true, nil
	}
	return info, true, nil
}

// stale says whether a lock's owner is gone at now: too old, or a dead pid
// here.
func (i LockInfo) stale(host string, now time.Time) (bool, string) {
	if age := now.Sub(i.Updated); age > staleAfter {
		return true, fmt.Sprintf("not refreshed for %s", age.Round(time.Minute))
	}
	if i.Host == host && i.PID > 0 && !pidAlive(i.PID) {
		return true, fmt.Sprintf("pid %d is gone", i.PID)
	}
	if i.PID <= 0 {
		return true, "unreadable lock file"
	}
	return false, ""
}

// acquireLock takes the session lock, removing a stale one (or any, with
// force) and reporting whose it was.
func acquireLock(lay layout.Layout, force bool, clock Clock, notify func(string)) (*lock, error) {
	host, _ := os.Hostname()
	path := lay.Lock()
	if info, ok, err := ReadLock(lay); err != nil {
		return nil, err
	} else if ok {
		stale, why := info.stale(host, clock.Now())
		switch {
		case force:
			notify(fmt.Sprintf("removing lock of pid %d on %s (--force-resume)", info.PID, info.Host))
		case stale:
			notify(fmt.Sprintf("removing stale lock of pid %d on %s: %s", info.PID, info.Host, why))
		default:
			return nil, &LockedError{Info: info, Now: clock.Now()}
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("remove stale lock: %w", err)
		}
	}
	now := clock.Now().UTC()
	l := &lock{lay: lay, clock: clock, info: LockInfo{PID: os.Getpid(), Host: host, Token: newToken(clock), Started: now, Updated: now},
		stop: make(chan struct{}), done: make(chan struct{})}
	if err := os.MkdirAll(lay.Workspace(), 0o755); err != nil {
		return nil, fmt.Errorf("create workspace: %w", err)
	}
	data, _ := json.MarshalIndent(l.info, "", "  ")
	// O_EXCL makes two racing starts agree on one winner.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		info, _, _ := ReadLock(lay)
		return nil, &LockedError{Info: info, Now: clock.Now()}
	}
	if err != nil {
		return nil, fmt.Errorf("create lock: %w", err)
	}
	_, werr := f.Write(append(data, '\n'))
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(path)
		return nil, fmt.Errorf("write lock: %w", werr)
	}
	go l.refresh()
	return l, nil
}

func (l *lock) refresh() {
	defer close(l.done)
	t := time.NewTicker(refreshEvery)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
			l.info.Updated = l.clock.Now().UTC()
			data, _ := json.MarshalIndent(l.info, "", "  ")
			_ = replaceFile(l.lay.Lock(), l.lay.LockTemp(), append(data, '\n'))
		}
	}
}

// release stops refreshing and removes the lock if it is still ours.
func (l *lock) release() {
	close(l.stop)
	<-l.done
	// Token and pid: under a fixed clock two runs share a token.
	if info, ok, _ := ReadLock(l.lay); ok && info.Token == l.info.Token && info.PID == l.info.PID {
		os.Remove(l.lay.Lock())
	}
}

// replaceFile writes via a temporary file and rename: another process may
// read the lock at any moment, and a torn lock would look stale.
func replaceFile(path, tmp string, data []byte) error {
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

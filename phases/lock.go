package phases

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/rgit-dev/rgit/phases/layout"
)

// staleAfter: a lock not refreshed for this long belongs to a dead run.
const staleAfter = 60 * time.Minute

// refreshEvery keeps a live lock well inside staleAfter, and bounds how
// long a displaced run's agent goes on (a variable for tests).
var refreshEvery = 30 * time.Second

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
//
// The lock file changes hands only under the store lock (Store.WithLock),
// which every commit and merge of the session also holds while its Guard
// (fence) checks that the file is still this run's: a run displaced by
// --force-resume, or whose stale lock was removed, can never move the
// branch again. The file is written whole to a temporary file and then
// linked into place (rename, for a refresh), so nobody reads it empty.
type lock struct {
	lay   layout.Layout
	clock Clock
	store Store // this lock's own Store: the refresh runs on its own goroutine
	info  LockInfo
	// lost is told, once per discovery, that the lock was taken over; the
	// run cancels its agents with it.
	lost func(error)
	stop chan struct{}
	done chan struct{}
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
		// Foreign or corrupt: rgit never writes a partial lock.
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
// force) and reporting whose it was. store must be the lock's own Store,
// used by no other goroutine; the lock closes it on release. lost is told
// if the refresh finds the lock taken over.
func acquireLock(store Store, lay layout.Layout, force bool, clock Clock, notify func(string), lost func(error)) (*lock, error) {
	host, _ := os.Hostname()
	now := clock.Now().UTC()
	l := &lock{lay: lay, clock: clock, store: store, lost: lost,
		info: LockInfo{PID: os.Getpid(), Host: host, Token: newToken(clock), Started: now, Updated: now},
		stop: make(chan struct{}), done: make(chan struct{})}
	if err := os.MkdirAll(lay.Workspace(), 0o755); err != nil {
		return nil, fmt.Errorf("create workspace: %w", err)
	}
	if err := store.WithLock(func() error { return l.take(force, notify) }); err != nil {
		return nil, err
	}
	go l.refresh()
	return l, nil
}

// take creates the lock file, under the store lock: a live owner's lock is
// a LockedError, a stale one (any, with force) is removed first and named.
func (l *lock) take(force bool, notify func(string)) error {
	data, _ := json.MarshalIndent(l.info, "", "  ")
	if err := writeTemp(l.lay.LockTemp(), append(data, '\n')); err != nil {
		return fmt.Errorf("write lock: %w", err)
	}
	defer os.Remove(l.lay.LockTemp())
	for {
		// link fails if the lock exists, and never shows it half-written.
		err := os.Link(l.lay.LockTemp(), l.lay.Lock())
		if !errors.Is(err, fs.ErrExist) {
			if err != nil {
				return fmt.Errorf("create lock: %w", err)
			}
			return nil
		}
		info, ok, err := ReadLock(l.lay)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		stale, why := info.stale(l.info.Host, l.clock.Now())
		switch {
		case force:
			notify(fmt.Sprintf("removing lock of pid %d on %s (--force-resume)", info.PID, info.Host))
		case stale:
			notify(fmt.Sprintf("removing stale lock of pid %d on %s: %s", info.PID, info.Host, why))
		default:
			return &LockedError{Info: info, Now: l.clock.Now()}
		}
		if err := os.Remove(l.lay.Lock()); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove stale lock: %w", err)
		}
		force = false // removed once; a new one now is another run's
	}
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
			err := l.store.WithLock(func() error {
				if err := l.fence(); err != nil {
					return err
				}
				info := l.info
				info.Updated = l.clock.Now().UTC()
				data, _ := json.MarshalIndent(info, "", "  ")
				return replaceFile(l.lay.Lock(), l.lay.LockTemp(), append(data, '\n'))
			})
			if errors.Is(err, ErrLocked) {
				return // fence told lost
			}
		}
	}
}

// release stops refreshing and removes the lock if it is still ours.
func (l *lock) release() {
	close(l.stop)
	<-l.done
	_ = l.store.WithLock(func() error {
		if info, ok, _ := ReadLock(l.lay); ok && l.owns(info) {
			os.Remove(l.lay.Lock())
		}
		return nil
	})
	l.store.Close()
}

// replaceFile writes via a temporary file and rename: another process may
// read the lock at any moment, and a torn lock would look stale.
func replaceFile(path, tmp string, data []byte) error {
	if err := writeTemp(tmp, data); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// writeTemp writes a new file at tmp. A temporary file a killed run left
// may still be a hard link to the lock itself (killed between link and
// remove), so it is removed rather than truncated.
func writeTemp(tmp string, data []byte) error {
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return os.WriteFile(tmp, data, 0o644)
}

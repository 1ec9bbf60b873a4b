package phases

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// LockFile is the session lock's name inside the workspace. It lives on
// disk only and is excluded from every commit.
const LockFile = "research.lock.json"

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

// LockedError says who holds a live lock.
type LockedError struct{ Info LockInfo }

func (e *LockedError) Error() string {
	return fmt.Sprintf("session is locked by pid %d on %s (started %s ago, refreshed %s ago)",
		e.Info.PID, e.Info.Host, time.Since(e.Info.Started).Round(time.Second), time.Since(e.Info.Updated).Round(time.Second))
}

// Is makes errors.Is(err, ErrLocked) true.
func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// lock is a held session lock.
type lock struct {
	path string
	info LockInfo
	stop chan struct{}
	done chan struct{}
}

// ReadLock reads a session's lock file; ok is false when there is none.
func ReadLock(dir string) (LockInfo, bool, error) {
	data, err := os.ReadFile(filepath.Join(dir, LockFile))
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

// stale says whether a lock's owner is gone: too old, or a dead pid here.
func (i LockInfo) stale(host string) (bool, string) {
	if time.Since(i.Updated) > staleAfter {
		return true, fmt.Sprintf("not refreshed for %s", time.Since(i.Updated).Round(time.Minute))
	}
	if i.Host == host && i.PID > 0 && !pidAlive(i.PID) {
		return true, fmt.Sprintf("pid %d is gone", i.PID)
	}
	if i.PID <= 0 {
		return true, "unreadable lock file"
	}
	return false, ""
}

func pidAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// acquireLock takes the session lock, removing a stale one (or any, with
// force) and reporting whose it was.
func acquireLock(dir string, force bool, notify func(string)) (*lock, error) {
	host, _ := os.Hostname()
	path := filepath.Join(dir, LockFile)
	if info, ok, err := ReadLock(dir); err != nil {
		return nil, err
	} else if ok {
		stale, why := info.stale(host)
		switch {
		case force:
			notify(fmt.Sprintf("removing lock of pid %d on %s (--force-resume)", info.PID, info.Host))
		case stale:
			notify(fmt.Sprintf("removing stale lock of pid %d on %s: %s", info.PID, info.Host, why))
		default:
			return nil, &LockedError{Info: info}
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("remove stale lock: %w", err)
		}
	}
	now := time.Now().UTC()
	l := &lock{path: path, info: LockInfo{PID: os.Getpid(), Host: host, Token: newToken(), Started: now, Updated: now},
		stop: make(chan struct{}), done: make(chan struct{})}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create workspace: %w", err)
	}
	data, _ := json.MarshalIndent(l.info, "", "  ")
	// O_EXCL makes two racing starts agree on one winner.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		info, _, _ := ReadLock(dir)
		return nil, &LockedError{Info: info}
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
			l.info.Updated = time.Now().UTC()
			data, _ := json.MarshalIndent(l.info, "", "  ")
			_ = replaceFile(l.path, append(data, '\n'))
		}
	}
}

// release stops refreshing and removes the lock if it is still ours.
func (l *lock) release() {
	close(l.stop)
	<-l.done
	if info, ok, _ := ReadLock(filepath.Dir(l.path)); ok && info.Token == l.info.Token {
		os.Remove(l.path)
	}
}

func newToken() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

// replaceFile writes via a temporary file and rename: another process may
// read the lock at any moment, and a torn lock would look stale.
func replaceFile(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

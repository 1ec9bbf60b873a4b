package gitstore

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-git/go-billy/v5/osfs"
)

// lockName is the file, inside the common git dir, that every writer of this
// package locks. One lock for the whole repository keeps Merge (which reads two
// branches) simple; a snapshot holds it for about a millisecond.
//
// The file is created by the first write (never by Open or a read) and then
// kept: deleting a lock file others may have open would let two processes
// lock two different files. Its content is the note of the ref move in
// progress (see reflock.go), empty between moves.
const lockName = "rgit/store.lock"

// unlocker releases a lock taken by lock.
type unlocker func() error

// lock takes the repository's exclusive OS lock (flock on Unix, LockFileEx
// on Windows), blocking until it is free. The lock dies with the process, so
// a crash never leaves the repository locked; what a crash inside a ref move
// leaves is cleaned up here, by the next holder. Each Store has its own open
// file, so Stores in one process exclude each other too.
func (s *Store) lock() (unlocker, error) {
	p := filepath.Join(s.commonDir, filepath.FromSlash(lockName))
	if s.lockFile == nil {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, fmt.Errorf("create lock dir: %w", err)
		}
		f, err := osfs.Default.OpenFile(p, os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			return nil, fmt.Errorf("open lock %s: %w", p, err)
		}
		s.lockFile = f
	}
	if err := s.lockFile.Lock(); err != nil {
		return nil, fmt.Errorf("lock %s: %w", p, err)
	}
	if err := s.recoverRefLock(); err != nil {
		s.lockFile.Unlock()
		return nil, err
	}
	return s.lockFile.Unlock, nil
}

// WithLock runs fn while holding the lock every write of this package holds
// from reading a branch to moving it. A caller that keeps its own record of
// who may write (a session's run token) changes that record inside WithLock
// and checks it in a Guard, so a run that lost its claim cannot move a ref
// after the new owner took over.
func (s *Store) WithLock(fn func() error) (err error) {
	unlock, err := s.lock()
	if err != nil {
		return err
	}
	defer func() {
		if uerr := unlock(); err == nil && uerr != nil {
			err = uerr
		}
	}()
	return fn()
}

// guard runs a caller's precondition under the lock, right before a ref
// moves; its refusal is wrapped in ErrFenced.
func guard(fn func() error) error {
	if fn == nil {
		return nil
	}
	if err := fn(); err != nil {
		return fmt.Errorf("%w: %w", ErrFenced, err)
	}
	return nil
}

package gitstore

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// A <ref>.lock left behind blocks the ref for good: git and this package
// both refuse to move a ref while its lock file exists. Which lock files
// may be removed:
//
//   - One this package created and noted. Before creating <ref>.lock, a
//     writer notes "pid, time, ref" in the store lock file, and clears the
//     note once the lock is renamed or removed. Writers hold the store lock
//     all that time, so a note found by the next holder of the store lock
//     is a dead writer's, and a <ref>.lock of that ref whose mtime is within
//     noteSlack of the noted time is the file it created: removed at once.
//   - A foreign one (git's, or one left before notes existed) at least
//     staleRefLock old. git holds a ref lock only from taking it to
//     renaming it, milliseconds; its own wait (core.filesRefLockTimeout)
//     is 100 ms. A lock that old has no live owner.
//
// A younger foreign lock is waited for (refLockWait), then reported.
const (
	noteSlack    = 2 * time.Second
	staleRefLock = 10 * time.Second
	refLockWait  = 2 * time.Second
)

// refNote is the note of a ref move in progress.
type refNote struct {
	pid  int
	when time.Time
	ref  plumbing.ReferenceName
}

// writeNote records the ref move about to start in the store lock file.
func (s *Store) writeNote(ref plumbing.ReferenceName, when time.Time) error {
	line := fmt.Sprintf("%d %d %s\n", pid, when.UnixNano(), ref)
	w, ok := s.lockFile.(io.WriterAt)
	if !ok {
		return errors.New("note ref move: lock file cannot be written")
	}
	if _, err := w.WriteAt([]byte(line), 0); err != nil {
		return fmt.Errorf("note ref move: %w", err)
	}
	return s.lockFile.Truncate(int64(len(line)))
}

// clearNote says the ref move is over.
func (s *Store) clearNote() error {
	if err := s.lockFile.Truncate(0); err != nil {
		return fmt.Errorf("clear ref move note: %w", err)
	}
	return nil
}

// readNote returns the note left in the store lock file and its size; a
// note that does not parse has an empty ref.
func (s *Store) readNote() (refNote, int) {
	var buf [512]byte
	size, _ := s.lockFile.ReadAt(buf[:], 0)
	f := strings.Fields(string(buf[:size]))
	if len(f) != 3 {
		return refNote{}, size
	}
	p, err1 := strconv.Atoi(f[0])
	ns, err2 := strconv.ParseInt(f[1], 10, 64)
	if err1 != nil || err2 != nil || plumbing.ReferenceName(f[2]).Validate() != nil {
		return refNote{}, size
	}
	return refNote{pid: p, when: time.Unix(0, ns), ref: plumbing.ReferenceName(f[2])}, size
}

// recoverRefLock runs when the store lock is taken: a note means the last
// holder died inside a ref move. Its ref lock, if still there, is removed.
func (s *Store) recoverRefLock() error {
	n, size := s.readNote()
	if size == 0 {
		return nil
	}
	if n.ref != "" {
		lock := filepath.Join(s.commonDir, filepath.FromSlash(string(n.ref))) + ".lock"
		if fi, err := os.Lstat(lock); err == nil && fi.Mode().IsRegular() && within(fi.ModTime(), n.when, noteSlack) {
			if err := os.Remove(lock); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("remove stale %s.lock: %w", n.ref, err)
			}
			s.note(fmt.Sprintf("removed %s.lock, left by rgit (pid %d) killed while moving the ref", n.ref, n.pid))
		}
	}
	return s.clearNote()
}

// createRefLock creates <ref>.lock exclusively, after noting it, and
// removes a stale foreign lock in the way. Callers hold the store lock and
// clear the note when the lock is gone (renamed or removed).
func (s *Store) createRefLock(name plumbing.ReferenceName, lock string) (*os.File, error) {
	start := time.Now()
	if err := s.writeNote(name, start); err != nil {
		return nil, err
	}
	for {
		f, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, os.ErrExist) {
			if err != nil {
				return nil, fmt.Errorf("lock ref %s: %w", name, err)
			}
			return f, nil
		}
		fi, serr := os.Lstat(lock)
		if serr == nil && time.Since(fi.ModTime()) >= staleRefLock {
			if err := os.Remove(lock); err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("remove stale %s.lock: %w", name, err)
			}
			s.note(fmt.Sprintf("removed %s.lock, %s old: its owner is gone (git holds a ref lock for milliseconds)",
				name, time.Since(fi.ModTime()).Round(time.Second)))
			continue
		}
		if time.Since(start) >= refLockWait {
			return nil, fmt.Errorf("lock ref %s: %s.lock exists: a git command is moving the branch, or was killed "+
				"(rgit removes the lock once it is %s old): %w", name, name, staleRefLock, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// within reports whether t is at most d away from ref.
func within(t, ref time.Time, d time.Duration) bool {
	diff := t.Sub(ref)
	return diff <= d && diff >= -d
}

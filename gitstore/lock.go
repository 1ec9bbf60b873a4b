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
const lockName = "rgit/store.lock"

// unlocker releases a lock taken by lock.
type unlocker func() error

// lock takes the repository's exclusive OS lock (flock on Unix, LockFileEx
// on Windows), blocking until it is free. The lock dies with the process, so
// a crash never leaves the repository locked. Each Store has its own open
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
	return s.lockFile.Unlock, nil
}

package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// errRefChanged: a compare-and-swap found the ref at another value.
var errRefChanged = errors.New("ref changed concurrently")

// casRef moves ref name from old to new (ZeroHash old: create only) the way
// git does: take <ref>.lock exclusively, check the current value, log the
// move in the ref's reflog, rename the lock over the ref. Callers hold the
// store lock; <ref>.lock also keeps out a concurrent git process, and the
// note createRefLock leaves lets the next run remove a lock this process
// leaves by dying. Returns errRefChanged on a mismatch.
func (s *Store) casRef(name plumbing.ReferenceName, newHash, old plumbing.Hash, msg string) (err error) {
	path := filepath.Join(s.commonDir, filepath.FromSlash(string(name)))
	if err := s.makeRefDir(name, path); err != nil {
		return err
	}
	lock := path + ".lock"
	f, err := s.createRefLock(name, lock)
	defer func() {
		if cerr := s.clearNote(); err == nil {
			err = cerr
		}
	}()
	if err != nil {
		return err
	}
	hook(pointRefLock)
	done := false
	defer func() {
		if !done {
			f.Close()
			os.Remove(lock)
		}
	}()
	cur, err := s.readRef(name)
	if err != nil {
		return err
	}
	if cur != old {
		return fmt.Errorf("update ref %s: %w", name, errRefChanged)
	}
	s.appendReflog(name, old, newHash, msg)
	if _, err := f.WriteString(newHash.String() + "\n"); err != nil {
		return fmt.Errorf("write ref %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write ref %s: %w", name, err)
	}
	hook(pointRefWrite)
	if err := os.Rename(lock, path); err != nil {
		return fmt.Errorf("update ref %s: %w", name, err)
	}
	done = true
	hook(pointRefRename)
	return nil
}

// appendReflog records a ref move in logs/<ref>, as git does for branches
// with its default core.logAllRefUpdates, so `git reflog` shows every
// snapshot. A reflog is a convenience: failing to write it is not an error.
func (s *Store) appendReflog(name plumbing.ReferenceName, old, newHash plumbing.Hash, msg string) {
	p := filepath.Join(s.commonDir, "logs", filepath.FromSlash(string(name)))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	c := s.signatures(time.Time{}).committer
	fmt.Fprintf(f, "%s %s %s <%s> %d %s\t%s\n", old, newHash, c.Name, c.Email, c.When.Unix(), c.When.Format("-0700"), msg)
}

// moveUserRef moves a branch the user may also be moving (with git commit)
// from old to new: with `git update-ref <ref> <new> <old>` when git is
// installed, since it honours git's ref locks, else with casRef. A ref that
// moved meanwhile gives errRefChanged.
func (s *Store) moveUserRef(ctx context.Context, ref plumbing.ReferenceName, newHash, old plumbing.Hash) error {
	if gitPath() == "" {
		return s.casRef(ref, newHash, old, "rgit: merge")
	}
	// Not cancelled halfway: a killed git would leave <ref>.lock behind.
	_, err := runGit(context.WithoutCancel(ctx), s.root, nil, "update-ref", "-m", "rgit: merge", string(ref), newHash.String(), old.String())
	if err != nil && (strings.Contains(err.Error(), "but expected") || strings.Contains(err.Error(), "cannot lock") ||
		strings.Contains(err.Error(), "already exists")) {
		return fmt.Errorf("%w: %v", errRefChanged, err)
	}
	return err
}

package gitstore

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Every directory is listed and each of its files stated on every
// snapshot, as git status does, except a sealed one: a session's source
// records, hundreds of files that never change once written, whose
// listing was most of a commit's file system work late in a session and
// grew with it. A sealed directory's tree is reused while the directory's
// own stat is unchanged and its writer names no file in it; otherwise it
// is listed, but only the files not in its last listing, or named by the
// writer, are stated.

// sealCheck is what a sealed directory's last listing tells its next one.
type sealCheck struct {
	fi   fs.FileInfo                 // the directory's stat before listing it; nil when not sealed
	ok   bool                        // the listing may be reused on the strength of fi alone
	prev map[string]object.TreeEntry // the last listing's regular files the writer did not name
}

// unchangedSealed returns the tree last written for a sealed directory
// that has not changed since, and otherwise the check to fill in while it
// is listed.
func (s *Store) unchangedSealed(dir, treePath string, w walk) (sealCheck, plumbing.Hash, bool) {
	if !w.sealed.match(treePath) {
		return sealCheck{}, plumbing.ZeroHash, false
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return sealCheck{}, plumbing.ZeroHash, false
	}
	old, listed := s.dirTrees[dir]
	if listed && old.sealed != nil && !w.wrote[dir] && sameStat(old.sealed, fi) && s.hasObject(old.hash) {
		return sealCheck{}, old.hash, true
	}
	// A directory changed within the racy window could change again
	// without its mtime moving: list it again next time.
	c := sealCheck{fi: fi, ok: fi.ModTime().Before(racyBefore(fi.ModTime(), w.now))}
	if listed {
		c.prev = make(map[string]object.TreeEntry, len(old.entries))
		for _, e := range old.entries {
			if e.Mode.IsFile() && e.Mode != filemode.Symlink && !w.wrote[filepath.Join(dir, e.Name)] {
				c.prev[e.Name] = e
			}
		}
	}
	return c, plumbing.ZeroHash, false
}

// sealedFile returns a file's entry from its directory's last listing, when
// it has one and was settled when hashed; ok is false when it must be
// stated.
func (s *Store) sealedFile(c *sealCheck, p, name string) (object.TreeEntry, bool) {
	e, ok := c.prev[name]
	if !ok || !s.stat[p].trusted || s.stat[p].hash != e.Hash {
		return object.TreeEntry{}, false
	}
	return e, true
}

// check notes a stated file: one hashed too soon after it was written
// could still change under the same mtime.
func (c *sealCheck) check(trusted bool) { c.ok = c.ok && trusted }

// spoil is called for a subdirectory: changes inside it leave this
// directory's stat as it is.
func (c *sealCheck) spoil() { c.ok = false }

// keep is the stat to record with the directory's tree, or nil.
func (c sealCheck) keep() fs.FileInfo {
	if c.fi == nil || !c.ok {
		return nil
	}
	return c.fi
}

// sameStat reports whether a directory is the same one, unchanged: same
// file, mode, size and modification time.
func sameStat(a, b fs.FileInfo) bool {
	return os.SameFile(a, b) && a.Mode() == b.Mode() && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// forgetListings drops what the store knows of the directories it listed:
// it is about to write into them itself.
func (s *Store) forgetListings() { clear(s.dirTrees) }

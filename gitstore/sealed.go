package gitstore

import (
	"io/fs"
	"os"

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
	fi    fs.FileInfo        // the directory's stat before listing it; nil when not sealed
	ok    bool               // the listing may be reused on the strength of fi alone
	prev  []object.TreeEntry // the last listing, in os.ReadDir's order (by name)
	next  int                // prev's first entry not yet passed by this listing
	wrote map[string]bool    // the files the writer named (walk.wrote)
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
	c := sealCheck{fi: fi, ok: fi.ModTime().Before(racyBefore(fi.ModTime(), w.now)), wrote: w.wrote}
	if listed {
		c.prev = old.entries
	}
	return c, plumbing.ZeroHash, false
}

// sealedFile returns a regular file's entry from its directory's last
// listing, when it has one, the writer did not name it and it was settled
// when hashed; ok is false when it must be stated. It is called in
// listing order, so the two listings are walked side by side: a map of
// the last one, and a path joined for each of its entries, cost more than
// the listing itself once sources/ held hundreds of files.
func (s *Store) sealedFile(c *sealCheck, p, name string) (object.TreeEntry, bool) {
	for c.next < len(c.prev) && c.prev[c.next].Name < name {
		c.next++
	}
	if c.next == len(c.prev) || c.prev[c.next].Name != name {
		return object.TreeEntry{}, false
	}
	e := c.prev[c.next]
	st := s.stat[p]
	if !e.Mode.IsFile() || e.Mode == filemode.Symlink || c.wrote[p] || !(st.trusted || st.named) || st.hash != e.Hash {
		return object.TreeEntry{}, false
	}
	return e, true
}

// hashed notes a file just hashed in a sealed directory. One the writer
// named is settled as far as the seal goes: its content is what the
// writer finished writing before the snapshot, and any later change of
// its own it names again. Trusting only settled mtimes here made every
// commit after a research phase state and reread the dozen records that
// phase wrote. Any other file hashed too soon after it was written could
// still change under the same mtime: the listing is not reused.
func (c *sealCheck) hashed(stat statCache, p string) {
	if c.fi == nil {
		return
	}
	e := stat[p]
	if c.wrote[p] {
		e.named = true
		stat[p] = e
	}
	c.ok = c.ok && (e.trusted || e.named)
}

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

package gitstore

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// statEntry remembers the blob hash of a file as it was when last hashed.
type statEntry struct {
	size  int64
	mtime int64 // unix nanoseconds
	mode  fs.FileMode
	hash  plumbing.Hash
	// trusted is false for a file modified too close to when it was hashed:
	// a later write in that window could keep size and (coarse) mtime.
	trusted bool
	// named is set for a file of a sealed directory hashed in a snapshot
	// whose writer named it: that writer names any later change too, so
	// the file is taken from the listing even if it was hashed within
	// the racy window (sealed.go). Never saved: a new Store trusts only
	// trusted entries.
	named bool
}

// statCache maps an absolute file path to its last known blob, so unchanged
// files are not read or hashed again (git's index plays this role for git).
type statCache map[string]statEntry

// lookup returns the cached hash when fi still matches the entry.
func (c statCache) lookup(p string, fi fs.FileInfo) (plumbing.Hash, bool) {
	e, ok := c[p]
	if !ok || !e.trusted || e.size != fi.Size() || e.mtime != fi.ModTime().UnixNano() || e.mode != fi.Mode() {
		return plumbing.ZeroHash, false
	}
	return e.hash, true
}

// remember records the hash of a file whose stat info was taken before it was read.
func (c statCache) remember(p string, fi fs.FileInfo, h plumbing.Hash, now time.Time) {
	c[p] = statEntry{
		size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: fi.Mode(), hash: h,
		trusted: fi.ModTime().Before(racyBefore(fi.ModTime(), now)),
	}
}

// racyBefore is the time before which an mtime can be trusted when hashed
// at now ("racy git"): a later write could keep size and mtime only within
// the filesystem's timestamp granularity. A sub-second mtime shows a fine
// grained filesystem, where the kernel's coarse clock (a few ms) is the
// window; whole-second mtimes mean a whole-second window.
func racyBefore(mtime, now time.Time) time.Time {
	if mtime.Nanosecond() != 0 {
		return now.Add(-racyWindow)
	}
	return now.Truncate(time.Second)
}

// racyWindow covers the kernel's coarse file timestamps (a jiffy, up to
// 10 ms) with room to spare.
const racyWindow = 50 * time.Millisecond

// fileMode maps a file's permission bits to git's two regular-file modes.
func fileMode(m fs.FileMode) filemode.FileMode {
	if m&0o111 != 0 {
		return filemode.Executable
	}
	return filemode.Regular
}

// hashFile returns the blob hash of a regular file, storing the blob when
// store is set. The stat cache spares unchanged files the read.
func (s *Store) hashFile(p string, fi fs.FileInfo, now time.Time, store bool) (plumbing.Hash, error) {
	if h, ok := s.stat.lookup(p, fi); ok && (!store || s.hasObject(h)) {
		return h, nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("read %s: %w", p, err)
	}
	h := plumbing.ComputeHash(plumbing.BlobObject, data)
	if store {
		if h, err = s.writeHashed(plumbing.BlobObject, h, data); err != nil {
			return h, err
		}
	}
	s.stat.remember(p, fi, h, now)
	return h, nil
}

// writeDir stores dir's contents as a tree whose path in the commit is
// treePath and returns its hash. Symlinks are stored as links, never
// followed; sockets, devices and excluded paths are skipped; an empty
// directory becomes the empty tree so it survives a round trip.
func (s *Store) writeDir(ctx context.Context, dir, treePath string, w walk) (plumbing.Hash, error) {
	if err := ctx.Err(); err != nil {
		return plumbing.ZeroHash, err
	}
	seal, h, ok := s.unchangedSealed(dir, treePath, w)
	if ok {
		return h, nil
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("read dir %s: %w", dir, err)
	}
	entries := make([]object.TreeEntry, 0, len(des))
	for _, de := range des {
		name := de.Name()
		tp := treePath + "/" + name
		if w.exclude.excludes(tp) {
			continue
		}
		p := childPath(dir, name)
		var e object.TreeEntry
		switch t := de.Type(); {
		case t.IsDir():
			h, err := s.writeDir(ctx, p, tp, w)
			if err != nil {
				return h, err
			}
			seal.spoil() // a change below does not touch this directory's stat
			e = object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h}
		case t&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return plumbing.ZeroHash, fmt.Errorf("read link %s: %w", p, err)
			}
			h, err := s.writeBlob([]byte(filepath.ToSlash(target)))
			if err != nil {
				return h, err
			}
			e = object.TreeEntry{Name: name, Mode: filemode.Symlink, Hash: h}
		case t.IsRegular():
			if known, ok := s.sealedFile(&seal, p, name); ok {
				e = known
				break
			}
			fi, err := de.Info()
			if err != nil {
				return plumbing.ZeroHash, fmt.Errorf("stat %s: %w", p, err)
			}
			h, err := s.hashFile(p, fi, w.now, true)
			if err != nil {
				return h, err
			}
			seal.hashed(s.stat, p)
			e = object.TreeEntry{Name: name, Mode: fileMode(fi.Mode()), Hash: h}
		default:
			continue
		}
		entries = append(entries, e)
	}
	return s.dirTree(dir, entries, seal)
}

// childPath is filepath.Join(dir, name) for a clean dir and a name read
// from it, without Join's Clean: a snapshot builds one for every file of
// the workspace, hundreds late in a session.
func childPath(dir, name string) string {
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return dir + name
	}
	return dir + string(filepath.Separator) + name
}

// dirTree is the tree last written for a directory on disk.
type dirTree struct {
	entries []object.TreeEntry // in os.ReadDir order, as writeDir lists them
	hash    plumbing.Hash
	sealed  fs.FileInfo // a sealed directory's own stat before it was listed; nil when not to be trusted
}

// dirTree stores a directory's entries as a tree, unless they are the ones
// it last stored for that directory: then the tree is known and is not
// sorted, encoded and hashed again. A session commit changes one or two
// directories of its workspace; the rest would otherwise cost work in
// proportion to the whole session on every commit.
func (s *Store) dirTree(dir string, entries []object.TreeEntry, seal sealCheck) (plumbing.Hash, error) {
	if old, ok := s.dirTrees[dir]; ok && slices.Equal(old.entries, entries) && s.hasObject(old.hash) {
		s.dirTrees[dir] = dirTree{entries: old.entries, hash: old.hash, sealed: seal.keep()}
		return old.hash, nil
	}
	listed := slices.Clone(entries)
	h, err := s.writeTree(entries)
	if err == nil {
		s.dirTrees[dir] = dirTree{entries: listed, hash: h, sealed: seal.keep()}
	}
	return h, err
}

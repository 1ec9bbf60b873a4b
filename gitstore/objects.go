package gitstore

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/klauspost/compress/zlib"
)

// emptyTree is git's well-known hash of the tree with no entries.
var emptyTree = plumbing.NewHash("4b825dc642cb6eb9a060e54bf8d69288fbb4904b")

// writeObject stores an encoded object unless it is already stored.
func (s *Store) writeObject(o plumbing.EncodedObject) (plumbing.Hash, error) {
	r, err := o.Reader()
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("write %s: %w", o.Type(), err)
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("write %s: %w", o.Type(), err)
	}
	return s.writeLoose(o.Type(), data)
}

// writeBlob stores data as a blob.
func (s *Store) writeBlob(data []byte) (plumbing.Hash, error) {
	return s.writeLoose(plumbing.BlobObject, data)
}

// writeLoose stores an object as git does: zlib at git's loose-object level
// (core.looseCompression = 1) into a read-only temporary file renamed into
// place, so a reader never sees a partial object. Writing ourselves hashes
// the content once, where go-git's storer hashes it three times. The
// compressor is klauspost/compress's zlib, the same format three to five
// times faster than compress/zlib at this level: a session commit rewrites
// state.json and the plan, which grow with the session (70 KB after 160
// phases), and compressing them was the largest cost that grew.
func (s *Store) writeLoose(t plumbing.ObjectType, data []byte) (plumbing.Hash, error) {
	return s.writeHashed(t, plumbing.ComputeHash(t, data), data)
}

// writeHashed is writeLoose for data whose hash h the caller computed:
// a snapshot hashes each file it reads to compare it with the tree, and
// hashing it again to store it doubled the hashing of the files that
// grow with a session (state.json, the plan).
func (s *Store) writeHashed(t plumbing.ObjectType, h plumbing.Hash, data []byte) (plumbing.Hash, error) {
	if s.hasObject(h) {
		return h, nil
	}
	hex := h.String()
	dir := filepath.Join(s.commonDir, "objects", hex[:2])
	tmp, err := s.createTemp(dir, hex)
	if errors.Is(err, os.ErrNotExist) {
		if err = os.MkdirAll(dir, 0o755); err == nil {
			tmp, err = s.createTemp(dir, hex)
		}
	}
	if err != nil {
		return h, fmt.Errorf("write %s %s: %w", t, h, err)
	}
	// Compress into a reused buffer so the file gets one write, not dozens.
	s.zbuf.Reset()
	if s.zw == nil {
		s.zw, _ = zlib.NewWriterLevel(&s.zbuf, zlib.BestSpeed)
	} else {
		s.zw.Reset(&s.zbuf)
	}
	_, err = fmt.Fprintf(s.zw, "%s %d\x00", t, len(data))
	if err == nil {
		_, err = s.zw.Write(data)
	}
	if cerr := s.zw.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		_, err = tmp.Write(s.zbuf.Bytes())
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	final := filepath.Join(dir, hex[2:])
	if err == nil {
		err = os.Rename(tmp.Name(), final)
		if _, serr := os.Lstat(final); err != nil && serr == nil {
			err = nil // a concurrent writer stored the same object (Windows refuses the rename)
		}
	}
	if err != nil {
		os.Remove(tmp.Name())
		return h, fmt.Errorf("write %s %s: %w", t, h, err)
	}
	s.have[h] = true
	return h, nil
}

// pid names temporary files; the process id never changes.
var pid = os.Getpid()

// createTemp creates a new read-only file in dir for writing an object.
// The name is unique per process and object; O_EXCL guards the rest.
func (s *Store) createTemp(dir, hex string) (*os.File, error) {
	for {
		s.tmpSeq++
		name := filepath.Join(dir, fmt.Sprintf("tmp_obj_%s_%d_%d", hex[2:10], pid, s.tmpSeq))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o444)
		if !errors.Is(err, os.ErrExist) {
			return f, err
		}
	}
}

// writeTree sorts entries the way git does and stores the tree.
func (s *Store) writeTree(entries []object.TreeEntry) (plumbing.Hash, error) {
	var err error
	if s.tbuf, err = encodeTree(s.tbuf[:0], entries); err != nil {
		return plumbing.ZeroHash, err
	}
	h, err := s.writeLoose(plumbing.TreeObject, s.tbuf)
	if err == nil {
		s.cacheTree(h, entries)
	}
	return h, err
}

// cacheLimit bounds the decoded trees and commits a Store keeps. A snapshot
// needs only its parent's few trees; a big cache would just feed the GC.
const cacheLimit = 256

// cacheTree remembers a tree's entries; callers never modify them.
func (s *Store) cacheTree(h plumbing.Hash, entries []object.TreeEntry) {
	if len(s.trees) >= cacheLimit {
		clear(s.trees)
	}
	s.trees[h] = entries
}

// writeCommit stores a commit.
func (s *Store) writeCommit(c *object.Commit) (plumbing.Hash, error) {
	o := &plumbing.MemoryObject{}
	if err := c.Encode(o); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("encode commit: %w", err)
	}
	h, err := s.writeObject(o)
	if err == nil {
		s.cacheCommit(h, c.TreeHash)
	}
	return h, err
}

// cacheCommit remembers a commit's root tree.
func (s *Store) cacheCommit(h, tree plumbing.Hash) {
	if len(s.commits) >= cacheLimit {
		clear(s.commits)
	}
	s.commits[h] = tree
}

// readTree decodes a tree; the zero hash reads as the empty tree.
func (s *Store) readTree(h plumbing.Hash) (*object.Tree, error) {
	if h.IsZero() || h == emptyTree {
		return &object.Tree{}, nil
	}
	if entries, ok := s.trees[h]; ok {
		return &object.Tree{Hash: h, Entries: entries}, nil
	}
	t, err := object.GetTree(s.st, h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		s.st.Reindex() // another process may have repacked
		t, err = object.GetTree(s.st, h)
	}
	if err != nil {
		return nil, fmt.Errorf("read tree %s: %w", h, err)
	}
	s.cacheTree(h, t.Entries)
	return t, nil
}

// readCommit decodes a commit.
func (s *Store) readCommit(h plumbing.Hash) (*object.Commit, error) {
	c, err := object.GetCommit(s.st, h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		s.st.Reindex()
		c, err = object.GetCommit(s.st, h)
	}
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", h, err)
	}
	return c, nil
}

// commitTree returns the root tree hash of a commit; ZeroHash for ZeroHash.
func (s *Store) commitTree(h plumbing.Hash) (plumbing.Hash, error) {
	if h.IsZero() {
		return plumbing.ZeroHash, nil
	}
	if t, ok := s.commits[h]; ok {
		return t, nil
	}
	c, err := s.readCommit(h)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	s.cacheCommit(h, c.TreeHash)
	return c.TreeHash, nil
}

// entryAt finds the entry at a slash path below tree root; ok is false when
// the path is absent.
func (s *Store) entryAt(root plumbing.Hash, p string) (e object.TreeEntry, ok bool, err error) {
	e = object.TreeEntry{Mode: filemode.Dir, Hash: root}
	if p == "" {
		return e, !root.IsZero(), nil
	}
	for _, name := range splitPath(p) {
		if e.Mode != filemode.Dir || e.Hash.IsZero() {
			return object.TreeEntry{}, false, nil
		}
		t, err := s.readTree(e.Hash)
		if err != nil {
			return object.TreeEntry{}, false, err
		}
		found := false
		for _, te := range t.Entries {
			if te.Name == name {
				e, found = te, true
				break
			}
		}
		if !found {
			return object.TreeEntry{}, false, nil
		}
	}
	return e, true, nil
}

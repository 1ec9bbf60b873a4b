package gitstore

import (
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// emptyTree is git's well-known hash of the tree with no entries.
var emptyTree = plumbing.NewHash("4b825dc642cb6eb9a060e54bf8d69288fbb4904b")

// reindexer is the part of go-git's filesystem storage that rereads the pack
// list after another process repacked.
type reindexer interface{ Reindex() }

// hasObject reports whether the object is stored, rereading the pack index
// once when it is not found (a concurrent repack may have moved it).
func (s *Store) hasObject(h plumbing.Hash) bool {
	if s.have[h] {
		return true
	}
	err := s.repo.Storer.HasEncodedObject(h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		if r, ok := s.repo.Storer.(reindexer); ok {
			r.Reindex()
			err = s.repo.Storer.HasEncodedObject(h)
		}
	}
	if err == nil {
		s.have[h] = true
	}
	return err == nil
}

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
// the content once, where go-git's storer hashes it three times.
func (s *Store) writeLoose(t plumbing.ObjectType, data []byte) (plumbing.Hash, error) {
	h := plumbing.ComputeHash(t, data)
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
	if s.zw == nil {
		s.zw, _ = zlib.NewWriterLevel(tmp, zlib.BestSpeed)
	} else {
		s.zw.Reset(tmp)
	}
	_, err = fmt.Fprintf(s.zw, "%s %d\x00", t, len(data))
	if err == nil {
		_, err = s.zw.Write(data)
	}
	if cerr := s.zw.Close(); err == nil {
		err = cerr
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, hex[2:]))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return h, fmt.Errorf("write %s %s: %w", t, h, err)
	}
	s.have[h] = true
	return h, nil
}

// createTemp creates a new read-only file in dir for writing an object.
// The name is unique per process and object; O_EXCL guards the rest.
func (s *Store) createTemp(dir, hex string) (*os.File, error) {
	for {
		s.tmpSeq++
		name := filepath.Join(dir, fmt.Sprintf("tmp_obj_%s_%d_%d", hex[2:10], os.Getpid(), s.tmpSeq))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o444)
		if !errors.Is(err, os.ErrExist) {
			return f, err
		}
	}
}

// writeTree sorts entries the way git does and stores the tree.
func (s *Store) writeTree(entries []object.TreeEntry) (plumbing.Hash, error) {
	sort.Sort(object.TreeEntrySorter(entries))
	o := &plumbing.MemoryObject{}
	if err := (&object.Tree{Entries: entries}).Encode(o); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("encode tree: %w", err)
	}
	return s.writeObject(o)
}

// writeCommit stores a commit.
func (s *Store) writeCommit(c *object.Commit) (plumbing.Hash, error) {
	o := &plumbing.MemoryObject{}
	if err := c.Encode(o); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("encode commit: %w", err)
	}
	return s.writeObject(o)
}

// readTree decodes a tree; the zero hash reads as the empty tree.
func (s *Store) readTree(h plumbing.Hash) (*object.Tree, error) {
	if h.IsZero() || h == emptyTree {
		return &object.Tree{}, nil
	}
	t, err := object.GetTree(s.repo.Storer, h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		if r, ok := s.repo.Storer.(reindexer); ok {
			r.Reindex()
			t, err = object.GetTree(s.repo.Storer, h)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("read tree %s: %w", h, err)
	}
	return t, nil
}

// readCommit decodes a commit.
func (s *Store) readCommit(h plumbing.Hash) (*object.Commit, error) {
	c, err := object.GetCommit(s.repo.Storer, h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		if r, ok := s.repo.Storer.(reindexer); ok {
			r.Reindex()
			c, err = object.GetCommit(s.repo.Storer, h)
		}
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
	c, err := s.readCommit(h)
	if err != nil {
		return plumbing.ZeroHash, err
	}
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

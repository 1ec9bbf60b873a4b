package gitstore

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
)

// packSet is the set of pack indexes in objects/pack, reloaded when the
// directory changes (git repack, git gc, a fetch, our Repack).
type packSet struct {
	mtime time.Time
	idx   []*idxfile.MemoryIndex
}

// refreshPacks rereads the pack indexes if objects/pack changed since the
// last look. Callers run it once per operation, not per object.
func (s *Store) refreshPacks() error {
	dir := filepath.Join(s.commonDir, "objects", "pack")
	fi, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		s.packs = packSet{}
		return nil
	}
	if err != nil {
		return fmt.Errorf("read packs: %w", err)
	}
	if fi.ModTime().Equal(s.packs.mtime) && s.packs.idx != nil {
		return nil
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("read packs: %w", err)
	}
	set := packSet{mtime: fi.ModTime(), idx: []*idxfile.MemoryIndex{}}
	for _, de := range des {
		if !strings.HasSuffix(de.Name(), ".idx") {
			continue
		}
		idx, err := loadIdx(filepath.Join(dir, de.Name()))
		if errors.Is(err, os.ErrNotExist) {
			continue // removed by a concurrent repack; its objects are in a newer pack
		}
		if err != nil {
			return err
		}
		set.idx = append(set.idx, idx)
	}
	s.packs = set
	s.reindex() // go-git's own pack list must follow too
	return nil
}

// loadIdx decodes one pack index file.
func loadIdx(p string) (*idxfile.MemoryIndex, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	idx := idxfile.NewMemoryIndex()
	if err := idxfile.NewDecoder(bufio.NewReader(f)).Decode(idx); err != nil {
		return nil, fmt.Errorf("read pack index %s: %w", p, err)
	}
	return idx, nil
}

// hasObject reports whether the object is stored: known from this Store's
// own writes, loose on disk, or in a pack.
func (s *Store) hasObject(h plumbing.Hash) bool {
	if s.have[h] {
		return true
	}
	hex := h.String()
	found := false
	if _, err := os.Lstat(filepath.Join(s.commonDir, "objects", hex[:2], hex[2:])); err == nil {
		found = true
	}
	for _, idx := range s.packs.idx {
		if ok, _ := idx.Contains(h); ok {
			found = true
			break
		}
	}
	if found {
		s.have[h] = true
	}
	return found
}

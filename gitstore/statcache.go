package gitstore

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// statCacheHeader opens a saved stat cache; a different header (another
// version) makes the file ignored.
const statCacheHeader = "rgit-statcache 1\n"

// statCacheFile is where the stat cache of one mount directory is kept
// between runs, so the first snapshot after a resume does not reread every
// file: <common>/rgit/statcache/<hash of the directory's path>.
func (s *Store) statCacheFile(dir string) string {
	sum := sha1.Sum([]byte(dir))
	return filepath.Join(s.commonDir, "rgit", "statcache", fmt.Sprintf("%x", sum[:8]))
}

// loadStatCache merges the saved entries of a mount directory into the
// in-memory cache, once per Store. Entries only ever spare a read: a lookup
// still checks size, mtime, mode and that the blob is stored. A missing or
// damaged file just means a cold cache.
func (s *Store) loadStatCache(dir string) {
	if s.statDirs[dir] {
		return
	}
	s.statDirs[dir] = true
	b, err := os.ReadFile(s.statCacheFile(dir))
	if err != nil || !bytes.HasPrefix(b, []byte(statCacheHeader)) {
		return
	}
	prefix := dir + string(filepath.Separator)
	for _, rec := range bytes.Split(b[len(statCacheHeader):], []byte{0}) {
		var size, mtime int64
		var mode uint32
		var hex string
		n, _ := fmt.Sscanf(string(rec), "%d %d %d %s", &size, &mtime, &mode, &hex)
		_, rel, ok := strings.Cut(string(rec), "\t")
		if n != 4 || !ok || !plumbing.IsHash(hex) {
			continue
		}
		p := prefix + filepath.FromSlash(rel)
		if _, known := s.stat[p]; !known {
			s.stat[p] = statEntry{size: size, mtime: mtime, mode: fs.FileMode(mode), hash: plumbing.NewHash(hex), trusted: true}
		}
	}
}

// saveStatCaches writes the trusted entries of every mount directory this
// Store loaded, through a temporary file and a rename. Failing to save is
// not an error: the cache is only a shortcut.
func (s *Store) saveStatCaches() {
	for dir := range s.statDirs {
		var buf bytes.Buffer
		w := bufio.NewWriter(&buf)
		w.WriteString(statCacheHeader)
		prefix := dir + string(filepath.Separator)
		for p, e := range s.stat {
			rel, ok := strings.CutPrefix(p, prefix)
			if !ok || !e.trusted || strings.ContainsAny(rel, "\x00") {
				continue
			}
			fmt.Fprintf(w, "%d %d %d %s\t%s\x00", e.size, e.mtime, uint32(e.mode), e.hash, filepath.ToSlash(rel))
		}
		w.Flush()
		p := s.statCacheFile(dir)
		if os.MkdirAll(filepath.Dir(p), 0o755) != nil {
			return
		}
		tmp := fmt.Sprintf("%s.tmp-%d", p, pid)
		if os.WriteFile(tmp, buf.Bytes(), 0o644) != nil || os.Rename(tmp, p) != nil {
			os.Remove(tmp)
		}
	}
}

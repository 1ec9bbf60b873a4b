package index

import (
	"context"
	"os"
	"path"
	"runtime"
	"slices"
)

// Config says what to index and where to keep the cache.
type Config struct {
	Dirs     []string // corpus directories
	Exclude  []string // path prefixes under each root to leave out
	Skip     []string // directories (absolute) never indexed, wherever they fall under a root
	CacheDir string   // directory of the on-disk cache; "" means none
	Workers  int      // parallel readers; 0 means GOMAXPROCS
}

// Stats reports what Open did.
type Stats struct {
	Files    int  // files in the corpus (binary ones included, with no passages)
	Passages int  // passages in the index
	Indexed  int  // files read and tokenized by this call
	Cached   bool // the index came from the on-disk cache
	Saved    bool // the cache was written
}

// Open returns an up-to-date index of cfg.Dirs. It starts from the cached
// index when there is one (a file whose size and modification time are
// unchanged is trusted; otherwise its content hash decides), re-indexes
// only new and changed files, and saves the cache when anything changed.
func Open(ctx context.Context, cfg Config) (*Index, Stats, error) {
	roots, err := MakeRoots(cfg.Dirs)
	if err != nil {
		return nil, Stats{}, err
	}
	var old *Index
	if cfg.CacheDir != "" {
		old, _ = load(cachePath(cfg.CacheDir, roots, cacheExclude(roots, cfg))) // a bad cache is rebuilt
	}
	return Update(ctx, old, cfg)
}

// Update brings old (nil for a cold build) up to date with the corpus.
func Update(ctx context.Context, old *Index, cfg Config) (*Index, Stats, error) {
	roots, err := MakeRoots(cfg.Dirs)
	if err != nil {
		return nil, Stats{}, err
	}
	if old != nil && !slices.Equal(old.Roots, roots) {
		old = nil
	}
	scan, err := scanCorpus(ctx, roots, cfg.Exclude, cfg.Skip, old, workers(cfg))
	if err != nil {
		return nil, Stats{}, err
	}
	res, tks, err := readFiles(ctx, scan.todo, workers(cfg), old)
	if err != nil {
		return nil, Stats{}, err
	}
	st := Stats{Cached: old != nil}
	touched := false // only modification times changed
	for _, r := range res {
		if r.reuse >= 0 {
			scan.keep[r.reuse] = true
			scan.mtime[r.reuse] = r.file.ModTime
			touched = true
		} else {
			st.Indexed++
		}
	}
	removed := old != nil && slices.Contains(scan.keep, false)
	ix := old
	switch {
	case old == nil || removed || st.Indexed > 0:
		ix = rebuild(roots, old, scan.keep, scan.mtime, res, tks)
	case touched:
		cp := old.clone()
		cp.Files = slices.Clone(old.Files)
		for i := range cp.Files {
			cp.Files[i].ModTime = scan.mtime[i]
		}
		ix = cp
	}
	if ix != old {
		if cfg.CacheDir != "" {
			if err := save(cachePath(cfg.CacheDir, roots, cacheExclude(roots, cfg)), ix); err != nil {
				return nil, Stats{}, err
			}
			st.Saved = true
		}
	}
	st.Files, st.Passages = len(ix.Files), ix.Len()
	return ix, st, nil
}

// cacheExclude is what, besides the roots, tells one cache from another:
// the exclusions, and the skipped directories that lie under a root. A
// session's own workspace outside the corpus skips nothing, so sessions in
// different workspaces share the corpus's cache.
func cacheExclude(roots []Root, cfg Config) []string {
	out := slices.Clone(cfg.Exclude)
	for _, r := range roots {
		for _, s := range skipUnder(r.Dir, cfg.Skip) {
			out = append(out, r.Dir+"/"+s)
		}
	}
	return out
}

func workers(cfg Config) int {
	if cfg.Workers > 0 {
		return cfg.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// scanResult is the corpus compared with the old index.
type scanResult struct {
	keep  []bool  // per old file: still there and unchanged
	mtime []int64 // per old file: its current modification time
	todo  []todo  // files to read
}

type todo struct {
	file File
	abs  string
	old  int // old file with the same path, or -1
}

// statAll stats the files of root on n goroutines (a warm open is mostly
// these calls); a file that cannot be stat'ed is nil.
func statAll(root string, rels []string, n int) []os.FileInfo {
	out := make([]os.FileInfo, len(rels))
	parallel(n, len(rels), func(i int) {
		if st, err := os.Stat(path.Join(root, rels[i])); err == nil {
			out[i] = st
		}
	})
	return out
}

func scanCorpus(ctx context.Context, roots []Root, exclude, skip []string, old *Index, n int) (scanResult, error) {
	var s scanResult
	byPath := map[string]int{}
	if old != nil {
		s.keep = make([]bool, len(old.Files))
		s.mtime = make([]int64, len(old.Files))
		for i, f := range old.Files {
			byPath[path.Join(roots[f.Root].Dir, f.Rel)] = i
			s.mtime[i] = f.ModTime
		}
	}
	for ri, r := range roots {
		rels, err := listFiles(ctx, r.Dir, append(skipUnder(r.Dir, skip), exclude...))
		if err != nil {
			return s, err
		}
		stats := statAll(r.Dir, rels, n)
		for i, rel := range rels {
			abs := path.Join(r.Dir, rel)
			st := stats[i]
			if st == nil || !st.Mode().IsRegular() || st.Size() > MaxFileSize {
				continue
			}
			f := File{Root: ri, Rel: rel, Size: st.Size(), ModTime: st.ModTime().UnixNano()}
			oi, ok := byPath[path.Join(r.Dir, rel)]
			if !ok {
				s.todo = append(s.todo, todo{f, abs, -1})
				continue
			}
			if of := old.Files[oi]; of.Size == f.Size && of.ModTime == f.ModTime {
				s.keep[oi] = true
				continue
			}
			s.todo = append(s.todo, todo{f, abs, oi})
		}
	}
	return s, nil
}

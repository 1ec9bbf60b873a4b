package index

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"os"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// Config says what to index and where to keep the cache.
type Config struct {
	Dirs     []string // corpus directories
	Exclude  []string // path prefixes under each root to leave out
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
		old, _ = load(cachePath(cfg.CacheDir, roots, cfg.Exclude)) // a bad cache is rebuilt
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
	scan, err := scanCorpus(ctx, roots, cfg.Exclude, old)
	if err != nil {
		return nil, Stats{}, err
	}
	res, err := readFiles(ctx, scan.todo, workers(cfg), old)
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
		ix = rebuild(roots, old, scan.keep, scan.mtime, res)
	case touched:
		cp := *old
		cp.Files = slices.Clone(old.Files)
		for i := range cp.Files {
			cp.Files[i].ModTime = scan.mtime[i]
		}
		ix = &cp
	}
	if ix != old {
		if cfg.CacheDir != "" {
			if err := save(cachePath(cfg.CacheDir, roots, cfg.Exclude), ix); err != nil {
				return nil, Stats{}, err
			}
			st.Saved = true
		}
	}
	st.Files, st.Passages = len(ix.Files), ix.Len()
	return ix, st, nil
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

func scanCorpus(ctx context.Context, roots []Root, exclude []string, old *Index) (scanResult, error) {
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
		rels, err := listFiles(ctx, r.Dir, exclude)
		if err != nil {
			return s, err
		}
		for _, rel := range rels {
			abs := path.Join(r.Dir, rel)
			st, err := os.Stat(abs)
			if err != nil || !st.Mode().IsRegular() || st.Size() > MaxFileSize {
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

// fileResult is one read file: either the old entry still holds (reuse is
// the old file's index) or its passages and their terms.
type fileResult struct {
	file     File
	reuse    int
	passages []Passage
	plen     []uint32
	terms    [][]termTF // per passage
}

type termTF struct {
	term string
	tf   uint32
}

// readFiles reads, hashes and tokenizes files in parallel, in input order.
func readFiles(ctx context.Context, todos []todo, n int, old *Index) ([]fileResult, error) {
	out := make([]fileResult, len(todos))
	dicts := make([]*tokenizer, n)
	for i := range dicts {
		dicts[i] = newTokenizer()
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for w := range n {
		wg.Go(func() {
			for i := range next {
				out[i] = dicts[w].readFile(todos[i], old)
			}
		})
	}
	var err error
	for i := range todos {
		if err = ctx.Err(); err != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return out, err
}

// tokenizer is one worker's scratch state; its dictionary interns terms so
// each distinct term is allocated once per worker, not once per use.
type tokenizer struct {
	dict   map[string]string
	counts map[string]int
	buf    []byte
	cur    []termTF
}

func newTokenizer() *tokenizer {
	return &tokenizer{dict: map[string]string{}, counts: map[string]int{}}
}

func (tk *tokenizer) readFile(t todo, old *Index) fileResult {
	r := fileResult{file: t.file, reuse: -1}
	data, err := os.ReadFile(t.abs)
	if err != nil {
		return r
	}
	sum := sha256.Sum256(data)
	copy(r.file.Hash[:], sum[:])
	if t.old >= 0 && old.Files[t.old].Hash == r.file.Hash {
		r.reuse = t.old
		return r
	}
	text, ok := Text(t.file.Rel, data)
	if !ok {
		return r
	}
	lines := Lines(text)
	title, heads := Outline(t.file.Rel, lines, string(data))
	base := strings.TrimSuffix(path.Base(t.file.Rel), path.Ext(t.file.Rel))
	extra := base + " " + path.Base(path.Dir(t.file.Rel)) + " " + title
	for _, p := range Split(t.file.Rel, lines, heads) {
		clear(tk.counts)
		tk.cur = tk.cur[:0]
		n := uint32(0)
		for _, l := range lines[p.Start-1 : p.End] {
			tk.buf = Tokens(l, tk.buf, func(b []byte) { tk.add(b); n++ })
		}
		tk.buf = Tokens(p.Label+" "+extra, tk.buf, tk.add)
		r.passages = append(r.passages, p)
		r.plen = append(r.plen, n)
		r.terms = append(r.terms, slices.Clone(tk.cur))
	}
	return r
}

func (tk *tokenizer) add(b []byte) {
	if i, ok := tk.counts[string(b)]; ok {
		tk.cur[i].tf++
		return
	}
	s, ok := tk.dict[string(b)]
	if !ok {
		s = string(b)
		tk.dict[s] = s
	}
	tk.counts[s] = len(tk.cur)
	tk.cur = append(tk.cur, termTF{s, 1})
}

// plist is one term's postings while building.
type plist struct {
	docs []uint32
	tfs  []uint32
}

// rebuild makes a new index from the kept part of old and the read files.
func rebuild(roots []Root, old *Index, keep []bool, mtime []int64, res []fileResult) *Index {
	ix := &Index{Roots: roots, labelOff: []uint32{0}}
	lists := map[string]*plist{}
	if old != nil {
		remap := make([]int32, old.Len())
		for i := range remap {
			remap[i] = -1
		}
		for fi, f := range old.Files {
			if !keep[fi] {
				continue
			}
			nf := f
			nf.ModTime = mtime[fi]
			nf.First = uint32(ix.Len())
			for d := f.First; d < f.First+f.Count; d++ {
				remap[d] = int32(ix.Len())
				ix.addPassage(len(ix.Files), old.pStart[d], old.pEnd[d], old.pLen[d],
					old.labelBlob[old.labelOff[d]:old.labelOff[d+1]])
			}
			ix.Files = append(ix.Files, nf)
		}
		for t := range old.df {
			var pl *plist
			old.postings(t, func(doc int, tf uint32) {
				if nd := remap[doc]; nd >= 0 {
					if pl == nil {
						pl = &plist{}
						lists[string(old.termBlob[old.termOff[t]:old.termOff[t+1]])] = pl
					}
					pl.docs = append(pl.docs, uint32(nd))
					pl.tfs = append(pl.tfs, tf)
				}
			})
		}
	}
	for _, r := range res {
		if r.reuse >= 0 {
			continue
		}
		f := r.file
		f.First, f.Count = uint32(ix.Len()), uint32(len(r.passages))
		for pi, p := range r.passages {
			doc := uint32(ix.Len())
			ix.addPassage(len(ix.Files), uint32(p.Start), uint32(p.End), r.plen[pi], []byte(p.Label))
			for _, tt := range r.terms[pi] {
				pl := lists[tt.term]
				if pl == nil {
					pl = &plist{}
					lists[tt.term] = pl
				}
				pl.docs = append(pl.docs, doc)
				pl.tfs = append(pl.tfs, tt.tf)
			}
		}
		ix.Files = append(ix.Files, f)
	}
	ix.encodeTerms(lists)
	return ix
}

func (ix *Index) addPassage(file int, start, end, n uint32, label []byte) {
	ix.pFile = append(ix.pFile, uint32(file))
	ix.pStart = append(ix.pStart, start)
	ix.pEnd = append(ix.pEnd, end)
	ix.pLen = append(ix.pLen, n)
	ix.totalLen += uint64(n)
	ix.labelBlob = append(ix.labelBlob, label...)
	ix.labelOff = append(ix.labelOff, uint32(len(ix.labelBlob)))
}

// encodeTerms writes the sorted dictionary and the varint postings.
func (ix *Index) encodeTerms(lists map[string]*plist) {
	terms := make([]string, 0, len(lists))
	for t := range lists {
		terms = append(terms, t)
	}
	slices.Sort(terms)
	ix.termOff = make([]uint32, 0, len(terms)+1)
	ix.postOff = make([]uint64, 0, len(terms)+1)
	ix.df = make([]uint32, 0, len(terms))
	ix.termOff = append(ix.termOff, 0)
	ix.postOff = append(ix.postOff, 0)
	for _, t := range terms {
		pl := lists[t]
		ix.termBlob = append(ix.termBlob, t...)
		ix.termOff = append(ix.termOff, uint32(len(ix.termBlob)))
		ix.df = append(ix.df, uint32(len(pl.docs)))
		prev := uint32(0)
		for i, d := range pl.docs {
			ix.postBlob = binary.AppendUvarint(ix.postBlob, uint64(d-prev))
			ix.postBlob = binary.AppendUvarint(ix.postBlob, uint64(pl.tfs[i]))
			prev = d
		}
		ix.postOff = append(ix.postOff, uint64(len(ix.postBlob)))
	}
}

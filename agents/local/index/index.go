// Package index is the local researcher's search engine: a BM25 index of
// passages (paragraphs of prose, declarations with their doc comments in
// code) over one or more corpus directories, cached on disk and kept up to
// date file by file.
//
// It is a compact ranker of its own rather than a search library: the whole
// index is a handful of flat arrays and two byte blobs (sorted terms,
// varint postings), so a warm start is one file read with no per-term
// decoding, and ranking is plain BM25 over the few query terms' postings.
package index

import (
	"encoding/binary"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// File is one indexed file.
type File struct {
	Root    int    // index into Index.Roots
	Rel     string // slash-separated path under the root
	Size    int64
	ModTime int64    // nanoseconds; a cheap "unchanged" check before hashing
	Hash    [16]byte // content hash (SHA-256 prefix): the cache key
	First   uint32   // first passage
	Count   uint32   // number of passages
	Gen     bool     // a generated file ("Code generated ... DO NOT EDIT.")
}

// Index is a searchable passage index. It is immutable once built, so any
// number of goroutines may search it.
type Index struct {
	Roots []Root
	Files []File

	pFile, pStart, pEnd, pLen []uint32
	labelBlob                 []byte
	labelOff                  []uint32 // len(passages)+1

	class    []uint8  // per file, from fileClass: computed once, not per hit
	termBlob []byte   // sorted terms, concatenated
	termOff  []uint32 // len(terms)+1
	df       []uint32
	postOff  []uint64 // len(terms)+1, into postBlob
	postBlob []byte   // per term: uvarint doc delta, uvarint tf
	totalLen uint64

	citeOnce sync.Once
	byCite   map[string]int // citation path -> file, for FileByCite
}

// Len is the number of passages.
func (ix *Index) Len() int { return len(ix.pFile) }

// Hit is one ranked passage.
type Hit struct {
	Doc   int
	Score float64
}

// Passage returns passage doc's file, line range and label.
func (ix *Index) Passage(doc int) (f *File, p Passage) {
	f = &ix.Files[ix.pFile[doc]]
	return f, Passage{
		Start: int(ix.pStart[doc]),
		End:   int(ix.pEnd[doc]),
		Label: string(ix.labelBlob[ix.labelOff[doc]:ix.labelOff[doc+1]]),
	}
}

// AbsPath is the file's absolute path on disk.
func (ix *Index) AbsPath(f *File) string {
	return filepath.Join(ix.Roots[f.Root].Dir, filepath.FromSlash(f.Rel))
}

// CitePath is the path citations use: the root's label, then the path under
// it ("sync/mutex.go").
func (ix *Index) CitePath(f *File) string {
	return path.Join(ix.Roots[f.Root].Label, f.Rel)
}

// term returns the dictionary slot of t, or -1.
func (ix *Index) term(t string) int {
	n := len(ix.df)
	i := sort.Search(n, func(i int) bool {
		return string(ix.termBlob[ix.termOff[i]:ix.termOff[i+1]]) >= t
	})
	if i < n && string(ix.termBlob[ix.termOff[i]:ix.termOff[i+1]]) == t {
		return i
	}
	return -1
}

// DF is the number of passages containing term t (a term from Terms).
func (ix *Index) DF(t string) int {
	if i := ix.term(t); i >= 0 {
		return int(ix.df[i])
	}
	return 0
}

// IDF is BM25's inverse document frequency of term t; 0 for unknown terms.
func (ix *Index) IDF(t string) float64 {
	df := ix.DF(t)
	if df == 0 {
		return 0
	}
	return idf(len(ix.pFile), df)
}

// MaxIDF is the weight of the rarest possible term (in one passage).
func (ix *Index) MaxIDF() float64 {
	if len(ix.pFile) == 0 {
		return 0
	}
	return idf(len(ix.pFile), 1)
}

// postings calls fn for every (passage, term frequency) of slot i.
func (ix *Index) postings(i int, fn func(doc int, tf uint32)) {
	b := ix.postBlob[ix.postOff[i]:ix.postOff[i+1]]
	doc := uint64(0)
	for len(b) > 0 {
		d, n := binary.Uvarint(b)
		tf, m := binary.Uvarint(b[n:])
		b = b[n+m:]
		doc += d
		fn(int(doc), uint32(tf))
	}
}

// setWeights computes the file classes; every constructor calls it.
func (ix *Index) setWeights() {
	ix.class = make([]uint8, len(ix.Files))
	for i, f := range ix.Files {
		ix.class[i] = fileClass(f.Rel, f.Gen)
	}
}

// File classes that rank below the code and documents they serve: they
// repeat the vocabulary of what they test, show, generate or drive without
// explaining it. A question that asks for one (its words include "test",
// "example", "generated", "command") lifts that class's down-weight.
const (
	classTest uint8 = 1 << iota
	classExample
	classTestdata
	classGenerated
	classVendor
	classCommand
)

// classWeight is each class's weight and the query term that lifts it.
var classWeight = []struct {
	class uint8
	w     float64
	asks  []string
}{
	{classTest, 0.4, []string{"test"}},
	{classExample, 0.4, []string{"exampl"}},
	{classTestdata, 0.3, []string{"testdata", "test"}},
	{classGenerated, 0.5, []string{"generat"}},
	{classVendor, 0.5, []string{"vendor"}},
	{classCommand, 0.7, []string{"command", "cmd", "tool"}},
}

// fileClass classifies a file by its path and generated flag.
func fileClass(rel string, gen bool) uint8 {
	p := "/" + rel
	base := path.Base(rel)
	var c uint8
	if strings.HasSuffix(rel, "_test.go") || strings.Contains(p, "/test/") || strings.Contains(p, "/tests/") ||
		strings.HasPrefix(base, "test_") || strings.Contains(base, ".test.") || strings.Contains(base, "_test.") {
		c |= classTest
	}
	if strings.HasPrefix(base, "example_") || strings.HasPrefix(base, "example.") || strings.Contains(p, "/example/") ||
		strings.Contains(p, "/examples/") {
		c |= classExample
	}
	if strings.Contains(p, "/testdata/") {
		c |= classTestdata
	}
	if gen {
		c |= classGenerated
	}
	if strings.Contains(p, "/vendor/") {
		c |= classVendor
	}
	if strings.HasPrefix(rel, "cmd/") || strings.Contains(p, "/cmd/") {
		c |= classCommand
	}
	return c
}

// weights returns the weight of each class combination for q: the product
// of the down-weights of its classes that q does not ask for.
func weights(q Query) [64]float64 {
	var out [64]float64
	for c := range out {
		w := 1.0
		for _, cw := range classWeight {
			if uint8(c)&cw.class == 0 {
				continue
			}
			asked := false
			for _, t := range cw.asks {
				asked = asked || q[t] > 0
			}
			if !asked {
				w *= cw.w
			}
		}
		out[c] = w
	}
	return out
}

// less orders passages by file path then line, so ranking ties break the
// same way whatever order the index was built in.
func (ix *Index) less(a, b int) bool {
	fa, fb := &ix.Files[ix.pFile[a]], &ix.Files[ix.pFile[b]]
	if fa != fb {
		if c := strings.Compare(ix.CitePath(fa), ix.CitePath(fb)); c != 0 {
			return c < 0
		}
	}
	return ix.pStart[a] < ix.pStart[b]
}

// ClassWeight is the down-weight Search gives the file rel for q (tests,
// examples, test data, vendored and command code rank lower unless q asks
// for them). Generated files are not known from the path alone.
func ClassWeight(q Query, rel string) float64 {
	return weights(q)[fileClass(rel, false)]
}

// FileByCite returns the file a citation path names, or nil. The lookup
// table is built on first use.
func (ix *Index) FileByCite(p string) *File {
	ix.citeOnce.Do(func() {
		ix.byCite = make(map[string]int, len(ix.Files))
		for i := range ix.Files {
			ix.byCite[ix.CitePath(&ix.Files[i])] = i
		}
	})
	if i, ok := ix.byCite[p]; ok {
		return &ix.Files[i]
	}
	return nil
}

// PassageAt returns the passage of f that holds line, if any.
func (ix *Index) PassageAt(f *File, line int) (Passage, bool) {
	for d := int(f.First); d < int(f.First+f.Count); d++ {
		if int(ix.pStart[d]) <= line && line <= int(ix.pEnd[d]) {
			_, p := ix.Passage(d)
			return p, true
		}
	}
	return Passage{}, false
}

// clone is a shallow copy of ix with its own lookup table.
func (ix *Index) clone() *Index {
	return &Index{
		Roots: ix.Roots, Files: ix.Files,
		pFile: ix.pFile, pStart: ix.pStart, pEnd: ix.pEnd, pLen: ix.pLen,
		labelBlob: ix.labelBlob, labelOff: ix.labelOff, class: ix.class,
		termBlob: ix.termBlob, termOff: ix.termOff, df: ix.df,
		postOff: ix.postOff, postBlob: ix.postBlob, totalLen: ix.totalLen,
	}
}

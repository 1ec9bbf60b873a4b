package index

import (
	"encoding/binary"
	"sync"
	"sync/atomic"
)

// rebuild makes a new index from the kept part of old and the read files.
// Passages of kept old files come first, then those of the new files in
// order, so every term's postings are written in increasing passage order
// in two passes over the postings: one counting each term's bytes, one
// writing them into a blob of exactly that size. Nothing per posting is
// allocated and no map is consulted per posting.
func rebuild(roots []Root, old *Index, keep []bool, mtime []int64, res []fileResult, tks []*tokenizer) *Index {
	ix := &Index{Roots: roots}
	n := 0
	for _, r := range res {
		n += len(r.passages)
	}
	if old != nil {
		n += old.Len()
	}
	ix.pFile, ix.pStart, ix.pEnd, ix.pLen = make([]uint32, 0, n), make([]uint32, 0, n), make([]uint32, 0, n), make([]uint32, 0, n)
	ix.labelOff = append(make([]uint32, 0, n+1), 0)
	var remapDoc []int32 // old passage -> new, or -1
	if old != nil {
		remapDoc = make([]int32, old.Len())
		for i := range remapDoc {
			remapDoc[i] = -1
		}
		for fi, f := range old.Files {
			if !keep[fi] {
				continue
			}
			nf := f
			nf.ModTime = mtime[fi]
			nf.First = uint32(ix.Len())
			for d := f.First; d < f.First+f.Count; d++ {
				remapDoc[d] = int32(ix.Len())
				ix.addPassage(len(ix.Files), old.pStart[d], old.pEnd[d], old.pLen[d],
					old.labelBlob[old.labelOff[d]:old.labelOff[d+1]])
			}
			ix.Files = append(ix.Files, nf)
		}
	}
	newFirst := make([]uint32, len(res)) // first passage of each new file
	for ri, r := range res {
		if r.reuse >= 0 {
			continue
		}
		f := r.file
		f.First, f.Count = uint32(ix.Len()), uint32(len(r.passages))
		newFirst[ri] = f.First
		for pi, p := range r.passages {
			ix.addPassage(len(ix.Files), uint32(p.Start), uint32(p.End), r.plen[pi], []byte(p.Label))
		}
		ix.Files = append(ix.Files, f)
	}
	terms, oldMap, workerMap := mergeDicts(old, tks)
	workers := max(1, len(tks))
	// The new files' postings move from worker-local ids to global ones in
	// place, once, so the passes below look nothing up per posting.
	parallel(workers, len(res), func(ri int) {
		if r := &res[ri]; r.reuse < 0 {
			wm := workerMap[r.worker]
			for i, e := range r.post {
				r.post[i] = uint32(wm[e>>8])<<8 | e&0xff
			}
		}
	})

	// The two passes below run one goroutine per range of terms (as many as
	// there were readers): every term's accumulator belongs to one
	// goroutine, so it needs no lock, and each goroutine's working set is
	// its share of the dictionary. The first pass sizes each term's
	// postings, the second writes them.
	acc := makeHuge[termAcc](len(terms), len(terms))
	shards := workers
	pass := func(k int, post func(a *termAcc, doc, tf uint32)) {
		lo, hi := uint32(k*len(terms)/shards), uint32((k+1)*len(terms)/shards)
		if old != nil {
			for t := range old.df {
				if g := uint32(oldMap[t]); g >= lo && g < hi {
					a := &acc[g]
					old.postings(t, func(doc int, tf uint32) {
						if nd := remapDoc[doc]; nd >= 0 {
							post(a, uint32(nd), tf)
						}
					})
				}
			}
		}
		for ri, r := range res {
			if r.reuse >= 0 {
				continue
			}
			p := r.post
			for pi, n := range r.nterms {
				doc := newFirst[ri] + uint32(pi)
				for _, e := range p[:n] {
					if g := e >> 8; g >= lo && g < hi {
						post(&acc[g], doc, e&0xff)
					}
				}
				p = p[n:]
			}
		}
	}
	parallel(workers, shards, func(k int) {
		pass(k, func(a *termAcc, doc, tf uint32) {
			delta := doc - a.last
			if a.df == 0 {
				delta = doc
			}
			a.pos += uint64(uvarintLen(delta) + uvarintLen(tf))
			a.df++
			a.last = doc
		})
	})
	// Terms no passage uses any more (of removed files) are dropped.
	blob := 0
	for _, t := range terms {
		blob += len(t)
	}
	ix.termBlob = makeHuge[byte](0, blob)
	ix.termOff = append(make([]uint32, 0, len(terms)+1), 0)
	ix.postOff = append(make([]uint64, 0, len(terms)+1), 0)
	ix.df = make([]uint32, 0, len(terms))
	var total uint64
	for g, t := range terms {
		a := &acc[g]
		if a.df == 0 {
			continue
		}
		ix.termBlob = append(ix.termBlob, t...)
		ix.termOff = append(ix.termOff, uint32(len(ix.termBlob)))
		ix.df = append(ix.df, a.df)
		a.pos, total = total, total+a.pos // from its size to where it starts
		a.df = 0
		ix.postOff = append(ix.postOff, total)
	}
	ix.postBlob = makeHuge[byte](int(total), int(total))
	parallel(workers, shards, func(k int) {
		pass(k, func(a *termAcc, doc, tf uint32) {
			delta := doc - a.last
			if a.df == 0 {
				delta = doc
			}
			c := a.pos
			c += uint64(binary.PutUvarint(ix.postBlob[c:], uint64(delta)))
			c += uint64(binary.PutUvarint(ix.postBlob[c:], uint64(tf)))
			a.pos = c
			a.df++
			a.last = doc
		})
	})
	ix.setWeights()
	return ix
}

// termAcc is one term's state in rebuild's passes: its last passage and
// postings so far, and the size of its postings (first pass) or where the
// next one goes (second pass).
type termAcc struct {
	last, df uint32
	pos      uint64
}

// uvarintLen is len(binary.AppendUvarint(nil, v)).
func uvarintLen(v uint32) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
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

// parallel runs fn(0) to fn(jobs-1) on workers goroutines, each taking the
// next job as it finishes one, and returns when all have run.
func parallel(workers, jobs int, fn func(k int)) {
	var wg sync.WaitGroup
	var next atomic.Int32
	for range max(1, workers) {
		wg.Go(func() {
			for k := int(next.Add(1)) - 1; k < jobs; k = int(next.Add(1)) - 1 {
				fn(k)
			}
		})
	}
	wg.Wait()
}

package index

import (
	"encoding/binary"
	"slices"
)

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
	ix.setWeights()
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

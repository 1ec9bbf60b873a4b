package index

import (
	"encoding/binary"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// mergeDicts merges the old index's sorted terms and the workers'
// dictionaries into one sorted term list, and says where each old term
// and each worker-local id went.
func mergeDicts(old *Index, tks []*tokenizer) (terms []string, oldMap []int, workerMap [][]int) {
	type source struct {
		names []string // in term order
		ids   []int32  // the local id of each of names (nil: the position)
		out   []int
	}
	var srcs []*source
	if old != nil {
		s := &source{names: make([]string, len(old.df)), out: make([]int, len(old.df))}
		for i := range s.names {
			b := old.termBlob[old.termOff[i]:old.termOff[i+1]]
			s.names[i] = unsafe.String(unsafe.SliceData(b), len(b)) // the blob never changes
		}
		srcs = append(srcs, s)
	}
	for range tks {
		srcs = append(srcs, &source{})
	}
	var wg sync.WaitGroup
	for k, tk := range tks { // the workers' dictionaries sort in parallel
		s := srcs[len(srcs)-len(tks)+k]
		wg.Go(func() {
			s.names, s.ids = sortedNames(tk.dict.names)
			s.out = makeHuge[int](len(s.names), len(s.names))
		})
	}
	wg.Wait()
	total := 0
	for _, s := range srcs {
		total += len(s.names)
	}
	terms = makeHuge[string](0, total) // at most; the same term in two sources is one
	pos := make([]int, len(srcs))
	for {
		best, found := "", false
		for si, s := range srcs {
			if p := pos[si]; p < len(s.names) && (!found || s.names[p] < best) {
				best, found = s.names[p], true
			}
		}
		if !found {
			break
		}
		g := len(terms)
		terms = append(terms, best)
		for si, s := range srcs {
			if p := pos[si]; p < len(s.names) && s.names[p] == best {
				id := p
				if s.ids != nil {
					id = int(s.ids[p])
				}
				s.out[id] = g
				pos[si]++
			}
		}
	}
	k := 0
	if old != nil {
		oldMap = srcs[0].out
		k = 1
	}
	for _, s := range srcs[k:] {
		workerMap = append(workerMap, s.out)
	}
	return terms, oldMap, workerMap
}

// sortedNames returns names sorted and the index of each in names. The
// sort compares the first eight bytes as one integer, so most comparisons
// touch neither string's bytes.
func sortedNames(names []string) ([]string, []int32) {
	type key struct {
		pre uint64
		id  int32
	}
	keys := makeHuge[key](len(names), len(names))
	for i, n := range names {
		var b [8]byte
		copy(b[:], n)
		keys[i] = key{binary.BigEndian.Uint64(b[:]), int32(i)}
	}
	slices.SortFunc(keys, func(a, b key) int {
		if a.pre != b.pre {
			if a.pre < b.pre {
				return -1
			}
			return 1
		}
		return strings.Compare(names[a.id], names[b.id])
	})
	sorted, ids := makeHuge[string](len(keys), len(keys)), makeHuge[int32](len(keys), len(keys))
	for i, k := range keys {
		sorted[i], ids[i] = names[k.id], k.id
	}
	return sorted, ids
}

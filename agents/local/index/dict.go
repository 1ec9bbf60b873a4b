package index

import (
	"hash/maphash"
	"math/bits"
	"unsafe"
)

// termDict gives each distinct term a dense id. It is an open-addressing
// table whose slots hold short terms in place: a lookup of a known term,
// which is what nearly every lookup is, reads one slot (half a cache line)
// instead of a map's control word, key header and key bytes, three places
// in a dictionary of hundreds of thousands of terms. Names live in large
// byte chunks, not one allocation each.
type termDict struct {
	slots []dictSlot
	names []string // by id; they point into chunks that are never written again
	chunk []byte
	seed  maphash.Seed
}

const inlineKey = 27

type dictSlot struct {
	id  int32 // id+1; 0 is an empty slot
	n   uint8 // length of the term when it fits in key, else inlineKey+1
	key [inlineKey]byte
}

func newTermDict(n int) termDict {
	size := 1 << max(10, bits.Len(uint(n*10/7)))
	return termDict{slots: makeHuge[dictSlot](size, size), names: make([]string, 0, n), seed: maphash.MakeSeed()}
}

// id returns the id of term b and whether it is new.
func (d *termDict) id(b []byte) (int32, bool) {
	mask := uint64(len(d.slots) - 1)
	h := maphash.Bytes(d.seed, b)
	n := uint8(len(b))
	if len(b) > inlineKey {
		n = inlineKey + 1
	}
	for i := h & mask; ; i = (i + 1) & mask {
		s := &d.slots[i]
		if s.id == 0 {
			return d.add(s, b, n), true
		}
		if s.n != n {
			continue
		}
		if n <= inlineKey && string(s.key[:n]) == string(b) || n > inlineKey && d.names[s.id-1] == string(b) {
			return s.id - 1, false
		}
	}
}

func (d *termDict) add(s *dictSlot, b []byte, n uint8) int32 {
	if len(d.chunk)+len(b) > cap(d.chunk) {
		size := 64 << 10 // a small corpus's dictionary; a large one's chunks are huge
		if len(d.names) > 16<<10 {
			size = hugeMin
		}
		d.chunk = makeHuge[byte](0, max(size, len(b)))
	}
	start := len(d.chunk)
	d.chunk = append(d.chunk, b...)
	id := int32(len(d.names))
	d.names = append(d.names, unsafe.String(unsafe.SliceData(d.chunk[start:]), len(b)))
	s.id, s.n = id+1, n
	copy(s.key[:], b)
	if 10*len(d.names) > 7*len(d.slots) {
		d.grow()
	}
	return id
}

func (d *termDict) grow() {
	slots := makeHuge[dictSlot](2*len(d.slots), 2*len(d.slots))
	mask := uint64(len(slots) - 1)
	for _, s := range d.slots {
		if s.id == 0 {
			continue
		}
		i := maphash.String(d.seed, d.names[s.id-1]) & mask
		for slots[i].id != 0 {
			i = (i + 1) & mask
		}
		slots[i] = s
	}
	d.slots = slots
}

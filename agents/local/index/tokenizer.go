package index

import (
	"unicode"
	"unicode/utf8"
)

// tokenizer is one worker's scratch state. Its dictionary gives each
// distinct term a worker-local id, so a term is stored once per worker
// and counting a token is one dictionary lookup plus slice indexing:
// slot[id] is the term's place in cur while stamp[id] equals the current
// passage's generation, which saves clearing a map per passage.
type tokenizer struct {
	dict  termDict
	stamp []uint32
	slot  []int32
	gen   uint32
	buf   []byte
	cur   []uint32 // the current passage's id<<8 | tf
	n     uint32   // the current passage's token count
	arena []uint32 // postings of the files read, handed out in slices
	cache []wordEntry
	data  []byte   // the file being read; reused
	lines []string // its lines; reused
	extra []int32  // ids of a file's terms that every passage of it has
	decl  []byte   // declaration terms being made
}

// termsPerFile sizes a worker's dictionary up front: the Go distribution
// has about 45 distinct terms per file, and growing a map of hundreds of
// thousands of terms rehashes it again and again.
const termsPerFile = 48

func newTokenizer(files int) *tokenizer {
	n := min(files*termsPerFile, 1<<20)
	return &tokenizer{dict: newTermDict(n), stamp: make([]uint32, 0, n), slot: make([]int32, 0, n)}
}

// text adds the terms of s to the current passage; count says whether
// they count towards its length. It is words with the word cache's hash
// computed in the same loop that finds the word's end.
func (tk *tokenizer) text(s string, count bool) {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf && !wordByte[c] {
			i++
			continue
		}
		j, h := i, uint32(fnvOffset)
		for j < len(s) {
			c := s[j]
			if c < utf8.RuneSelf {
				if !wordByte[c] {
					break
				}
				h = (h ^ uint32(c)) * fnvPrime
				j++
				continue
			}
			r, n := utf8.DecodeRuneInString(s[j:])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				break
			}
			for k := j; k < j+n; k++ {
				h = (h ^ uint32(s[k])) * fnvPrime
			}
			j += n
		}
		if j == i { // a non-ASCII rune that is not a letter
			_, n := utf8.DecodeRuneInString(s[i:])
			i += n
			continue
		}
		tk.hashedWordIDs(s[i:j], h, identContext(s, i, j), count)
		i = j
	}
}

// arenaChunk is the size of a worker's posting arena chunks after the
// first (which is small, for small corpora): 16 MB, so that huge pages
// back most of each.
const arenaChunk = 4 << 20

// chunkSize is the size of the next arena chunk.
func (tk *tokenizer) chunkSize() int {
	if tk.arena == nil {
		return 1 << 18
	}
	return arenaChunk
}

// keep copies the current passage's postings into the arena and returns
// them; the arena grows in large chunks, so files cost no allocation each.
func (tk *tokenizer) keep(post []uint32) []uint32 {
	if len(tk.arena)+len(tk.cur) > cap(tk.arena) {
		if len(post) > 0 { // the file's postings so far move to the new chunk
			tk.arena = makeHuge[uint32](0, max(tk.chunkSize(), 2*(len(post)+len(tk.cur))))
			tk.arena = append(tk.arena, post...)
			post = tk.arena[:len(post)]
		} else {
			tk.arena = makeHuge[uint32](0, max(tk.chunkSize(), 2*len(tk.cur)))
		}
	}
	start := len(tk.arena) - len(post)
	tk.arena = append(tk.arena, tk.cur...)
	return tk.arena[start:len(tk.arena):len(tk.arena)]
}

// id returns the worker-local id of term b, adding it to the dictionary.
func (tk *tokenizer) id(b []byte) int32 {
	id, added := tk.dict.id(b)
	if added {
		tk.stamp = append(tk.stamp, 0)
		tk.slot = append(tk.slot, 0)
	}
	return id
}

// addID counts term id in the current passage.
func (tk *tokenizer) addID(id int32) {
	if tk.stamp[id] == tk.gen {
		if e := &tk.cur[tk.slot[id]]; *e&0xff < maxTF {
			*e++
		}
		return
	}
	tk.stamp[id], tk.slot[id] = tk.gen, int32(len(tk.cur))
	tk.cur = append(tk.cur, uint32(id)<<8|1)
}

// ids returns the ids of the terms of s, repeated as often as s has them.
// It uses the current passage as scratch space.
func (tk *tokenizer) ids(s string) []int32 {
	tk.gen++
	tk.cur = tk.cur[:0]
	tk.text(s, false)
	out := tk.extra[:0]
	for _, e := range tk.cur {
		for range e & 0xff {
			out = append(out, int32(e>>8))
		}
	}
	tk.extra = out
	return out
}

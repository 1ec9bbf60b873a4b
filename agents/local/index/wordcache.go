package index

// A corpus repeats a small vocabulary: most words of a file (func, return,
// err, the package's own names) were seen a moment ago. Each tokenizer
// keeps a direct-mapped cache from a raw word, as written, to the ids of
// the terms it yields (the whole identifier and its parts), so a repeated
// word costs a hash and a compare instead of lowercasing, splitting,
// stemming and a dictionary lookup per term. Entries hold their word in
// place (words are at most maxTokenLen bytes), so a miss allocates nothing.

const (
	wordCacheBits = 15 // 32K entries of 64 bytes per worker
	cachedIDs     = 6  // words yielding more terms are not cached
)

type wordEntry struct {
	n     uint8 // word length; 0 means empty
	ident bool  // written as an identifier (keeps stop words)
	k     uint8 // ids used
	word  [maxTokenLen]byte
	ids   [cachedIDs]int32
}

// FNV-1a, the word cache's hash.
const (
	fnvOffset = 2166136261
	fnvPrime  = 16777619
)

// hashedWordIDs counts every term of word w in the current passage, as
// word(w, ident) would emit them, through the cache; h is w's FNV-1a hash,
// which the caller computes while finding the word; count says whether
// the terms count towards the passage's length.
func (tk *tokenizer) hashedWordIDs(w string, h uint32, ident, count bool) {
	if len(w) > maxTokenLen {
		return
	}
	if ident {
		h = (h ^ 1) * fnvPrime
	}
	if tk.cache == nil {
		tk.cache = makeHuge[wordEntry](1<<wordCacheBits, 1<<wordCacheBits)
	}
	e := &tk.cache[h>>(32-wordCacheBits)]
	if int(e.n) == len(w) && e.ident == ident && string(e.word[:e.n]) == w {
		for _, id := range e.ids[:e.k] {
			tk.addID(id)
		}
		if count {
			tk.n += uint32(e.k)
		}
		return
	}
	var ids [cachedIDs]int32
	k, fits := 0, true
	tk.buf = word(w, ident, tk.buf, func(b []byte) {
		id := tk.id(b)
		tk.addID(id)
		if count {
			tk.n++
		}
		if k < cachedIDs {
			ids[k] = id
			k++
		} else {
			fits = false
		}
	})
	if !fits {
		return
	}
	e.n, e.ident, e.k = uint8(len(w)), ident, uint8(k)
	copy(e.word[:], w)
	e.ids = ids
}

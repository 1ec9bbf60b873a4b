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

// wordIDs counts every term of word w in the current passage, as
// word(w, ident) would emit them, through the cache; count says whether
// they count towards the passage's length.
func (tk *tokenizer) wordIDs(w string, ident, count bool) {
	if len(w) > maxTokenLen {
		return
	}
	h := uint32(2166136261)
	for i := 0; i < len(w); i++ {
		h = (h ^ uint32(w[i])) * 16777619
	}
	if ident {
		h = (h ^ 1) * 16777619
	}
	if tk.cache == nil {
		tk.cache = make([]wordEntry, 1<<wordCacheBits)
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

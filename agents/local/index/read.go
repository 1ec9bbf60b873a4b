package index

import (
	"context"
	"crypto/sha256"
	"path"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// fileResult is one read file: either the old entry still holds (reuse is
// the old file's index) or its passages and their terms.
type fileResult struct {
	file     File
	reuse    int
	worker   int // the tokenizer whose dictionary post's ids are in
	passages []Passage
	plen     []uint32
	nterms   []uint32 // per passage: its entries in post
	post     []uint32 // per passage, per distinct term: id<<8 | tf
}

// maxTF caps a term's frequency in one passage (8 bits of a posting):
// BM25 saturates long before.
const maxTF = 255

// readFiles reads, hashes and tokenizes files in parallel, in input order.
// It returns the results and the workers' dictionaries.
func readFiles(ctx context.Context, todos []todo, n int, old *Index) ([]fileResult, []*tokenizer, error) {
	out := make([]fileResult, len(todos))
	tks := make([]*tokenizer, n)
	for i := range tks {
		tks[i] = newTokenizer(len(todos) / n)
	}
	var wg sync.WaitGroup
	next := make(chan int, 64)
	for w := range n {
		wg.Go(func() {
			for i := range next {
				out[i] = tks[w].readFile(todos[i], old)
				out[i].worker = w
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
	return out, tks, err
}

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

func (tk *tokenizer) readFile(t todo, old *Index) fileResult {
	r := fileResult{file: t.file, reuse: -1}
	data, err := readInto(t.abs, t.file.Size, tk.data)
	tk.data = data
	if err != nil {
		return r
	}
	sum := sha256.Sum256(data)
	copy(r.file.Hash[:], sum[:])
	if t.old >= 0 && old.Files[t.old].Hash == r.file.Hash {
		r.reuse = t.old
		return r
	}
	name, raw, ok := decode(t.file.Rel, data)
	if !ok {
		return r
	}
	text, ok := textOf(name, raw)
	if !ok {
		return r
	}
	r.file.Gen = isGenerated(text)
	tk.lines = appendLines(tk.lines[:0], text)
	lines := tk.lines
	title, heads := Outline(t.file.Rel, lines, raw)
	base := strings.TrimSuffix(path.Base(name), path.Ext(name))
	extra := base + " " + path.Base(path.Dir(t.file.Rel)) + " " + title
	extraIDs := tk.ids(extra) // the same for every passage
	code := KindOf(t.file.Rel) == Code
	dir := declDir(t.file.Rel)
	r.passages = Split(t.file.Rel, lines, heads)
	for i := range r.passages { // labels point into data, which is reused
		r.passages[i].Label = strings.Clone(r.passages[i].Label)
	}
	r.plen = make([]uint32, len(r.passages))
	r.nterms = make([]uint32, len(r.passages))
	for pi, p := range r.passages {
		tk.gen++
		tk.cur = tk.cur[:0]
		tk.n = 0
		tk.text(span(text, lines[p.Start-1:p.End]), true)
		tk.text(p.Label, false)
		for _, id := range extraIDs {
			tk.addID(id)
		}
		if code {
			tk.declIDs(p.Label, dir)
		}
		r.plen[pi] = tk.n
		r.nterms[pi] = uint32(len(tk.cur))
		r.post = tk.keep(r.post)
	}
	return r
}

// generatedRE is Go's convention for generated files, which other tools
// follow too: a line "Code generated ... DO NOT EDIT." near the top.
var generatedRE = regexp.MustCompile(`(?m)^\W*Code generated .*DO NOT EDIT\.?`)

func isGenerated(text string) bool {
	head := text[:min(len(text), 4096)]
	return strings.Contains(head, "DO NOT EDIT") && generatedRE.MatchString(head)
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

// span returns the text of lines, which are consecutive lines of text, as
// one substring of it, so that a passage is tokenized in one call rather
// than one per line; the words found are the same, a line break being no
// part of a word nor of what makes one an identifier. When the first or
// last line is empty, which Split never yields, it is the lines joined.
func span(text string, lines []string) string {
	first, last := lines[0], lines[len(lines)-1]
	if first == "" || last == "" {
		return strings.Join(lines, "\n")
	}
	base := uintptr(unsafe.Pointer(unsafe.StringData(text)))
	start := uintptr(unsafe.Pointer(unsafe.StringData(first))) - base
	end := uintptr(unsafe.Pointer(unsafe.StringData(last))) - base + uintptr(len(last))
	if start > end || end > uintptr(len(text)) {
		return strings.Join(lines, "\n")
	}
	return text[start:end]
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

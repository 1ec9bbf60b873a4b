package index

import (
	"context"
	"crypto/sha256"
	"path"
	"regexp"
	"strings"
	"sync"
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

package index

import (
	"context"
	"crypto/sha256"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// fileResult is one read file: either the old entry still holds (reuse is
// the old file's index) or its passages and their terms.
type fileResult struct {
	file     File
	reuse    int
	passages []Passage
	plen     []uint32
	terms    [][]termTF // per passage
}

type termTF struct {
	term string
	tf   uint32
}

// readFiles reads, hashes and tokenizes files in parallel, in input order.
func readFiles(ctx context.Context, todos []todo, n int, old *Index) ([]fileResult, error) {
	out := make([]fileResult, len(todos))
	dicts := make([]*tokenizer, n)
	for i := range dicts {
		dicts[i] = newTokenizer()
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for w := range n {
		wg.Go(func() {
			for i := range next {
				out[i] = dicts[w].readFile(todos[i], old)
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
	return out, err
}

// tokenizer is one worker's scratch state. Its dictionary gives each
// distinct term a worker-local id, so a term is allocated once per worker
// and counting a token is one map lookup plus slice indexing: slot[id] is
// the term's place in cur while stamp[id] equals the current passage's
// generation, which saves clearing a map per passage.
type tokenizer struct {
	dict  map[string]int32
	names []string
	stamp []uint32
	slot  []int32
	gen   uint32
	buf   []byte
	cur   []termTF
}

func newTokenizer() *tokenizer {
	return &tokenizer{dict: map[string]int32{}}
}

func (tk *tokenizer) readFile(t todo, old *Index) fileResult {
	r := fileResult{file: t.file, reuse: -1}
	data, err := os.ReadFile(t.abs)
	if err != nil {
		return r
	}
	sum := sha256.Sum256(data)
	copy(r.file.Hash[:], sum[:])
	if t.old >= 0 && old.Files[t.old].Hash == r.file.Hash {
		r.reuse = t.old
		return r
	}
	text, ok := Text(t.file.Rel, data)
	if !ok {
		return r
	}
	r.file.Gen = isGenerated(text)
	lines := Lines(text)
	_, raw, _ := decode(t.file.Rel, data)
	title, heads := Outline(t.file.Rel, lines, string(raw))
	base := strings.TrimSuffix(path.Base(t.file.Rel), path.Ext(t.file.Rel))
	extra := base + " " + path.Base(path.Dir(t.file.Rel)) + " " + title
	for _, p := range Split(t.file.Rel, lines, heads) {
		tk.gen++
		tk.cur = tk.cur[:0]
		n := uint32(0)
		for _, l := range lines[p.Start-1 : p.End] {
			tk.buf = Tokens(l, tk.buf, func(b []byte) { tk.add(b); n++ })
		}
		tk.buf = Tokens(p.Label+" "+extra, tk.buf, tk.add)
		if KindOf(t.file.Rel) == Code {
			for _, d := range DeclTerms(p.Label, t.file.Rel) {
				tk.add([]byte(d))
			}
		}
		r.passages = append(r.passages, p)
		r.plen = append(r.plen, n)
		r.terms = append(r.terms, slices.Clone(tk.cur))
	}
	return r
}

// generatedRE is Go's convention for generated files, which other tools
// follow too: a line "Code generated ... DO NOT EDIT." near the top.
var generatedRE = regexp.MustCompile(`(?m)^\W*Code generated .*DO NOT EDIT\.?`)

func isGenerated(text string) bool {
	return generatedRE.MatchString(text[:min(len(text), 4096)])
}

func (tk *tokenizer) add(b []byte) {
	id, ok := tk.dict[string(b)]
	if !ok {
		id = int32(len(tk.names))
		name := string(b)
		tk.dict[name] = id
		tk.names = append(tk.names, name)
		tk.stamp = append(tk.stamp, 0)
		tk.slot = append(tk.slot, 0)
	}
	if tk.stamp[id] == tk.gen {
		tk.cur[tk.slot[id]].tf++
		return
	}
	tk.stamp[id], tk.slot[id] = tk.gen, int32(len(tk.cur))
	tk.cur = append(tk.cur, termTF{tk.names[id], 1})
}

package index

import (
	"slices"
	"testing"
)

// terms returns the current passage's terms, each as often as counted.
func (tk *tokenizer) terms() []string {
	var out []string
	for _, e := range tk.cur {
		for range e & 0xff {
			out = append(out, tk.dict.names[e>>8])
		}
	}
	slices.Sort(out)
	return out
}

// A cold build adds a declaration's terms without allocating them; they
// must be DeclTerms', which queries ask for.
func TestDeclIDsMatchDeclTerms(t *testing.T) {
	tests := []struct{ label, rel string }{
		{"Is", "errors/wrap.go"},
		{"Mutex.lockSlow", "sync/mutex.go"},
		{"URL.String", "net/url/url.go"},
		{"main", "main.go"},
		{"", "a/b.go"},
		{"a b", "a/b.go"},
		{".x", "a/b.go"},
		{"X.", "a/b.go"},
		{"Größe.Über", "Pkg/x.go"},
		{"HTTPServer", "NET/HTTP/server.go"},
	}
	tk := newTokenizer(1)
	for _, tt := range tests {
		tk.gen++
		tk.cur = tk.cur[:0]
		tk.declIDs(tt.label, declDir(tt.rel))
		want := DeclTerms(tt.label, tt.rel)
		slices.Sort(want)
		if got := tk.terms(); !slices.Equal(got, want) {
			t.Errorf("declIDs(%q, %q) = %q, DeclTerms %q", tt.label, tt.rel, got, want)
		}
	}
}

// A passage is tokenized as one span of the file's text: it must yield
// what its lines yield one by one, whatever ends a line.
func TestSpanTokensAsLines(t *testing.T) {
	texts := []string{
		"func (m *Mutex) Lock() {\n\tm.lockSlow()\n}\n",
		"a line ending in sync.\nOnce at the start\r\nof once.\r\nDo\n(x)\n",
		"# Heading\n\nprose once\n\n\n  indented do\n",
		"x\n\n\ny",
	}
	tk := newTokenizer(1)
	for _, text := range texts {
		lines := Lines(text)
		for a := range lines {
			for b := a; b < len(lines); b++ {
				if lines[a] == "" || lines[b] == "" {
					continue
				}
				tk.gen++
				tk.cur, tk.n = tk.cur[:0], 0
				tk.text(span(text, lines[a:b+1]), true)
				got, gotN := tk.terms(), tk.n
				tk.gen++
				tk.cur, tk.n = tk.cur[:0], 0
				for _, l := range lines[a : b+1] {
					tk.text(l, true)
				}
				if want := tk.terms(); !slices.Equal(got, want) || gotN != tk.n {
					t.Errorf("%q lines %d-%d: span gives %q (%d), lines %q (%d)", text, a, b, got, gotN, want, tk.n)
				}
			}
		}
	}
}

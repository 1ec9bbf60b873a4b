package index

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// declIDs adds the terms DeclTerms(label, rel) to the current passage,
// dir being declDir(rel), without allocating them: a cold build makes
// them for every declaration of the corpus.
func (tk *tokenizer) declIDs(label, dir string) {
	if label == "" || strings.ContainsAny(label, " \t") {
		return
	}
	b := append(tk.decl[:0], '=')
	b = appendLower(b, label)
	n := len(b)
	l := b[1:n]
	add := func(name []byte) {
		tk.addID(tk.id(name))
	}
	add(b[:n])
	q := b[n:]
	if dir != "" {
		q = append(append(append(append(q, '='), dir...), '.'), l...)
		add(q)
	}
	if k := bytes.IndexByte(l, '.'); k > 0 { // a method's type
		recv := l[:k]
		add(b[:k+1])
		if dir != "" {
			q = append(append(append(append(q[:0], '='), dir...), '.'), recv...)
			add(q)
		}
	}
	tk.decl = b[:0]
}

// appendLower appends strings.ToLower(s) to b.
func appendLower(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return append(b, strings.ToLower(s)...)
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isUpper(c) {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}

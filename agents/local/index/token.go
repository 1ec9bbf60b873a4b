package index

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxTokenLen drops longer runs (hex blobs, base64, generated tables): they
// never match a question and would bloat the dictionary.
const maxTokenLen = 32

// Tokens calls emit with every index term of s, in order. A word is a run of
// letters, digits and underscores; it is lowercased and stemmed, and an
// identifier such as starvationThresholdNs or runtime_Semrelease also yields
// its parts, so a question in prose finds the code that names the idea.
// Pure numbers are dropped, and so are stop words written as prose: a stop
// word that is written as an identifier (joined to another name by a dot as
// in sync.Once or once.Do, called as in Do(, or part of a compound such as
// doSlow) is kept, because in code it names something. buf is scratch
// space the caller may reuse; emit must copy the term if it keeps it past
// the call.
func Tokens(s string, buf []byte, emit func(term []byte)) []byte {
	words(s, func(w string, ident bool) { buf = word(w, ident, buf, emit) })
	return buf
}

// words calls fn with every word of s and whether it is written as an
// identifier (see identContext).
func words(s string, fn func(w string, ident bool)) {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf && !isWordByte(c) {
			i++
			continue
		}
		j := i
		for j < len(s) {
			c := s[j]
			if c < utf8.RuneSelf {
				if !isWordByte(c) {
					break
				}
				j++
				continue
			}
			r, n := utf8.DecodeRuneInString(s[j:])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				break
			}
			j += n
		}
		if j == i { // a non-ASCII rune that is not a letter
			_, n := utf8.DecodeRuneInString(s[i:])
			i += n
			continue
		}
		fn(s[i:j], identContext(s, i, j))
		i = j
	}
}

func isWordByte(c byte) bool { return wordByte[c] }

// wordByte says which bytes are ASCII letters, digits and the underscore.
var wordByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	return t
}()

// identContext reports whether the word s[i:j] is written as an
// identifier: joined by a dot to another name (sync.Once, once.Do) or
// followed by an opening parenthesis (Do().
func identContext(s string, i, j int) bool {
	if i >= 2 && s[i-1] == '.' && isWordByte(s[i-2]) {
		return true
	}
	if j+1 < len(s) && s[j] == '.' && isWordByte(s[j+1]) {
		return true
	}
	return j < len(s) && s[j] == '('
}

// word emits the whole word and, for compound identifiers, its parts. A
// stop word is kept when ident says it is written as an identifier, and
// always as part of a compound.
func word(w string, ident bool, buf []byte, emit func([]byte)) []byte {
	if len(w) > maxTokenLen {
		return buf
	}
	compound := false
	for k := 1; k < len(w) && !compound; k++ {
		compound = isBoundary(w, k)
	}
	buf = emitTerm(w, ident, buf, emit)
	if !compound {
		return buf
	}
	start := 0
	for k := 1; k <= len(w); k++ {
		if k < len(w) && !isBoundary(w, k) {
			continue
		}
		if part := strings.Trim(w[start:k], "_"); part != "" {
			buf = emitTerm(part, true, buf, emit)
		}
		start = k
	}
	return buf
}

// isBoundary reports whether an identifier part starts at w[k]: an
// underscore, a lower-to-upper case change (starvationMode), the last capital
// of an acronym before a lower-case letter (HTTPServer) or a letter-digit
// change (utf8Len).
func isBoundary(w string, k int) bool {
	a, b := w[k-1], w[k]
	switch {
	case b == '_' || a == '_':
		return true
	case isLower(a) && isUpper(b):
		return true
	case isUpper(a) && isUpper(b) && k+1 < len(w) && isLower(w[k+1]):
		return true
	case isDigit(a) != isDigit(b) && a < utf8.RuneSelf && b < utf8.RuneSelf:
		return true
	}
	return false
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// emitTerm lowercases, filters and stems one word into buf and emits it;
// keepStop keeps a stop word.
func emitTerm(w string, keepStop bool, buf []byte, emit func([]byte)) []byte {
	buf = buf[:0]
	digits := true
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf {
			buf = buf[:0]
			for _, r := range w {
				buf = utf8.AppendRune(buf, unicode.ToLower(r))
			}
			digits = false
			break
		}
		if isUpper(c) {
			c += 'a' - 'A'
		}
		if !isDigit(c) {
			digits = false
		}
		buf = append(buf, c)
	}
	for len(buf) > 0 && buf[len(buf)-1] == '_' {
		buf = buf[:len(buf)-1]
	}
	if len(buf) < 2 || digits || !keepStop && stopWords[string(buf)] {
		return buf
	}
	buf = stem(buf)
	emit(buf)
	return buf
}

// stem strips common English suffixes so that starving, starvation and
// starved meet at one term. It is deliberately crude (one rule of each kind,
// never below three letters): query and corpus go through the same function,
// so only consistency matters.
func stem(b []byte) []byte {
	has := func(suf string) bool {
		return len(b) >= len(suf)+3 && string(b[len(b)-len(suf):]) == suf
	}
	switch {
	case has("sses"):
		b = b[:len(b)-2]
	case has("ies"):
		b = append(b[:len(b)-3], 'i')
	case has("ss"), has("us"), has("is"):
	case has("s"):
		b = b[:len(b)-1]
	}
	switch {
	case has("ations"):
		b = b[:len(b)-6]
	case has("ation"):
		b = b[:len(b)-5]
	case has("tion"), has("sion"): // selection and select, execution and execute
		b = b[:len(b)-3]
	case has("ing"):
		b = undouble(b[:len(b)-3])
	case has("ed"):
		b = undouble(b[:len(b)-2])
	case has("ly"):
		b = b[:len(b)-2]
	case len(b) >= 5 && has("er"):
		b = b[:len(b)-2]
	}
	if has("e") {
		b = b[:len(b)-1]
	}
	return b
}

// undouble turns runn into run after a suffix is cut.
func undouble(b []byte) []byte {
	n := len(b)
	if n >= 4 && b[n-1] == b[n-2] && b[n-1] != 'l' && b[n-1] != 's' && b[n-1] != 'z' {
		return b[:n-1]
	}
	return b
}

// stopWords are English function words; they carry no topic.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{
		"a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be",
		"because", "been", "before", "being", "between", "both", "but", "by", "can", "could",
		"did", "do", "does", "doing", "done", "each", "either", "etc", "for", "from", "had",
		"has", "have", "having", "he", "her", "here", "him", "his", "how", "however", "if",
		"in", "into", "is", "it", "its", "itself", "just", "may", "me", "might", "more",
		"most", "must", "my", "no", "nor", "not", "of", "on", "once", "only", "or", "other",
		"our", "out", "over", "own", "same", "she", "should", "so", "some", "such", "than",
		"that", "the", "their", "them", "then", "there", "these", "they", "this", "those",
		"through", "to", "too", "under", "until", "up", "us", "very", "was", "we", "were",
		"what", "when", "where", "whether", "which", "while", "who", "whom", "why", "will",
		"with", "would", "you", "your",
	} {
		m[w] = true
	}
	return m
}()

// IsStopWord reports whether w, lowercased, is an English function word
// that prose questions drop.
func IsStopWord(w string) bool { return stopWords[strings.ToLower(w)] }

// Terms returns the distinct terms of s in first-seen order.
func Terms(s string) []string {
	var out []string
	seen := map[string]bool{}
	Tokens(s, nil, func(t []byte) {
		if !seen[string(t)] {
			seen[string(t)] = true
			out = append(out, string(t))
		}
	})
	return out
}

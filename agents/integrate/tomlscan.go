package integrate

import (
	"fmt"
	"strings"
)

// tomlHeader is one [table] or [[array]] header line of a TOML file.
type tomlHeader struct {
	line  int // 0-based line index
	path  []string
	array bool
}

// tomlHeaders finds the header lines of src, skipping lines that sit
// inside multi-line strings and arrays, so that a value that merely looks
// like a header is never taken for one. src has already parsed.
func tomlHeaders(lines []string) []tomlHeader {
	var out []tomlHeader
	var st tomlState
	for i, line := range lines {
		if st.open() {
			st.scan(line)
			continue
		}
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			if h, ok := parseHeader(t); ok {
				h.line = i
				out = append(out, h)
				continue
			}
		}
		st.scan(line)
	}
	return out
}

// tomlState is what a line leaves open: a multi-line string (its closing
// delimiter) or brackets of an array or inline table.
type tomlState struct {
	closing string // `"""` or `'''` while inside a multi-line string
	depth   int
}

func (s *tomlState) open() bool { return s.closing != "" || s.depth > 0 }

func (s *tomlState) scan(line string) {
	for i := 0; i < len(line); i++ {
		if s.closing != "" {
			j := strings.Index(line[i:], s.closing)
			if j < 0 {
				return
			}
			k := i + j
			if s.closing == `"""` && escaped(line, k) {
				i = k
				continue
			}
			// One or two quotes may end the string's own text right
			// before its delimiter: '''a''''' closes with '' inside.
			for n := 0; n < 2 && k+3 < len(line) && line[k+3] == s.closing[0]; n++ {
				k++
			}
			i, s.closing = k+2, ""
			continue
		}
		switch c := line[i]; c {
		case '#':
			return
		case '"', '\'':
			delim := strings.Repeat(string(c), 3)
			if strings.HasPrefix(line[i:], delim) {
				s.closing = delim
				i += 2
				continue
			}
			i = closeQuote(line, i)
		case '[', '{':
			s.depth++
		case ']', '}':
			s.depth--
		}
	}
}

// escaped reports whether line[k] follows an odd run of backslashes.
func escaped(line string, k int) bool {
	n := 0
	for k > 0 && line[k-1] == '\\' {
		n++
		k--
	}
	return n%2 == 1
}

// closeQuote returns the index of the quote closing the one-line string
// that opens at line[i] (the last index when it does not close).
func closeQuote(line string, i int) int {
	q := line[i]
	for j := i + 1; j < len(line); j++ {
		if line[j] == q && (q == '\'' || !escaped(line, j)) {
			return j
		}
	}
	return len(line) - 1
}

// parseHeader reads "[a.b]" or "[[a.b]]", with quoted keys and spaces
// around the dots, and an optional comment after it.
func parseHeader(t string) (tomlHeader, bool) {
	h := tomlHeader{array: strings.HasPrefix(t, "[[")}
	rest := t[1:]
	if h.array {
		rest = t[2:]
	}
	for {
		rest = strings.TrimLeft(rest, " \t")
		var key string
		switch {
		case rest == "":
			return h, false
		case rest[0] == '"' || rest[0] == '\'':
			end := closeQuote(rest, 0)
			if end == 0 || rest[end] != rest[0] {
				return h, false
			}
			key, rest = unquoteKey(rest[:end+1]), rest[end+1:]
		default:
			n := strings.IndexFunc(rest, func(r rune) bool { return !isBareKey(r) })
			if n <= 0 {
				return h, false
			}
			key, rest = rest[:n], rest[n:]
		}
		h.path = append(h.path, key)
		rest = strings.TrimLeft(rest, " \t")
		if strings.HasPrefix(rest, ".") {
			rest = rest[1:]
			continue
		}
		closing := "]"
		if h.array {
			closing = "]]"
		}
		return h, strings.HasPrefix(rest, closing)
	}
}

func isBareKey(r rune) bool {
	return r == '_' || r == '-' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
}

// unquoteKey reads a quoted key; literal keys have no escapes.
func unquoteKey(q string) string {
	if q[0] == '\'' {
		return q[1 : len(q)-1]
	}
	var s string
	if _, err := fmt.Sscanf(q, "%q", &s); err != nil {
		return q[1 : len(q)-1]
	}
	return s
}

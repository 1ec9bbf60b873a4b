package prompts

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/xrash/smetrics"
)

// Error is a template problem with its position: a bad placeholder or an
// unknown variable. Line and Col are 1-based and count characters (not
// bytes) the way Python's string.Template reports them.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// segment is one piece of a parsed template: literal text (with "$$"
// already folded to "$"), or a variable when name is set.
type segment struct {
	lit  string
	name string
}

// Validate checks src against Python's string.Template rules: "$name" and
// "${name}" with name matching [_a-zA-Z][_a-zA-Z0-9]*, "$$" for a literal
// dollar, and no other use of "$". It also rejects any name that is not
// one of Variables(). The first problem in the text is returned as *Error.
func Validate(file string, src []byte) error {
	_, err := parse(file, src)
	return err
}

// parse splits src into segments, stopping at the first problem, which is
// where Python's substitute would stop too. Literal segments are slices of
// one copy of src: "$$" ends a literal just after its first "$".
func parse(file string, src []byte) ([]segment, error) {
	s := string(src)
	if !utf8.ValidString(s) {
		return nil, errorAt(file, s, firstInvalidUTF8(s), "invalid UTF-8; save the template as UTF-8")
	}
	segs := make([]segment, 0, 2*strings.Count(s, "$")+1)
	lit := 0 // start of the pending literal
	i := 0
	for {
		j := strings.IndexByte(s[i:], '$')
		if j < 0 {
			break
		}
		at := i + j
		rest := s[at+1:]
		var name string
		switch {
		case rest != "" && rest[0] == '$':
			segs = appendLit(segs, s[lit:at+1])
			lit, i = at+2, at+2
			continue
		case idLen(rest) > 0:
			name = rest[:idLen(rest)]
			i = at + 1 + len(name)
		case rest != "" && rest[0] == '{':
			n := idLen(rest[1:])
			if n == 0 || 1+n >= len(rest) || rest[1+n] != '}' {
				return nil, errorAt(file, s, at, badBrace(rest))
			}
			name = rest[1 : 1+n]
			i = at + n + 3
		default:
			return nil, errorAt(file, s, at, badDollar(rest))
		}
		if _, ok := variables[name]; !ok {
			return nil, errorAt(file, s, at, unknownMsg(name))
		}
		segs = appendLit(segs, s[lit:at])
		segs = append(segs, segment{name: name})
		lit = i
	}
	return appendLit(segs, s[lit:]), nil
}

func appendLit(segs []segment, lit string) []segment {
	if lit == "" {
		return segs
	}
	return append(segs, segment{lit: lit})
}

// idLen is the length of the identifier at the start of s: Python's
// (?a:[_a-z][_a-z0-9]*) under IGNORECASE.
func idLen(s string) int {
	n := 0
	for n < len(s) {
		c := s[n]
		isLetter := c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
		if !isLetter && (n == 0 || c < '0' || c > '9') {
			break
		}
		n++
	}
	return n
}

func badDollar(rest string) string {
	const hint = `; write "$$" for a literal dollar sign`
	if rest == "" {
		return `"$" at end of template` + hint
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return fmt.Sprintf(`"$" followed by %q is not a variable`, r) + hint
}

func badBrace(rest string) string {
	if end := strings.IndexByte(rest, '}'); end < 0 || strings.ContainsAny(rest[:end], "\n\r") {
		return `unterminated "${": write "${name}"`
	}
	return fmt.Sprintf(`bad variable name %q: write "${name}" with a name from [_a-zA-Z][_a-zA-Z0-9]*`, rest[1:strings.IndexByte(rest, '}')])
}

// unknownMsg names the bad variable, the closest valid one when there is
// a likely intended name, and every valid name.
func unknownMsg(name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "unknown variable $%s", name)
	if s := suggest(name); s != "" {
		fmt.Fprintf(&b, " (did you mean %s?)", s)
	}
	b.WriteString("; valid variables: ")
	for i, v := range sortedVariables {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("$" + v)
	}
	return b.String()
}

// suggest proposes a fix for an unknown name: the same name in lower
// case, a valid name followed by text that needs braces ("$topicfoo" ->
// "${topic}foo"), or a valid name within two edits.
func suggest(name string) string {
	if _, ok := variables[strings.ToLower(name)]; ok {
		return "$" + strings.ToLower(name)
	}
	best, bestLen := "", 0
	for _, v := range sortedVariables {
		if strings.HasPrefix(name, v) && len(v) > bestLen {
			best, bestLen = v, len(v)
		}
	}
	if best != "" {
		return "${" + best + "}" + name[bestLen:]
	}
	bestDist := 3
	for _, v := range sortedVariables {
		if d := editDistance(strings.ToLower(name), v); d < bestDist {
			best, bestDist = "$"+v, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between two short ASCII names.
func editDistance(a, b string) int { return smetrics.WagnerFischer(a, b, 1, 1, 1) }

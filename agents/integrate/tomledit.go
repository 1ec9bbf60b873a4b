package integrate

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/BurntSushi/toml"
)

// tomlTable is a table rgit owns in a TOML file: its header path and its
// lines (header first). No Go TOML library keeps comments when it writes
// a file back, so the edit is line-level: the owned table's lines are
// replaced, or appended, and every other byte of the file stays; the
// result is parsed again to prove it holds exactly the values meant.
type tomlTable struct {
	path  []string
	lines []string
	want  map[string]any // the table's values as the TOML decoder reads them
}

// setTOMLTable puts t into src, the contents of file. The table's own
// subtables ([a.b.c] under [a.b]) are the user's and stay.
func setTOMLTable(file string, src []byte, t tomlTable) ([]byte, error) {
	if _, err := decodeTOML(file, src); err != nil {
		return nil, err
	}
	text := string(src)
	// Lines are split at "\n" only, so a CRLF file keeps its "\r"s; rgit's
	// own lines get one too.
	eol := ""
	if strings.Contains(text, "\r\n") {
		eol = "\r"
	}
	own := make([]string, len(t.lines))
	for i, l := range t.lines {
		own[i] = l + eol
	}
	lines := strings.Split(text, "\n")
	finalNL := lines[len(lines)-1] == ""
	if finalNL {
		lines = lines[:len(lines)-1] // the final newline ends the last line
	}
	headers := tomlHeaders(lines)
	start, end := -1, len(lines)
	for i, h := range headers {
		if !h.array && slicesEqual(h.path, t.path) {
			start = h.line
			if i+1 < len(headers) {
				end = headers[i+1].line
			}
		}
	}
	var out []string
	if start >= 0 {
		// Comments and blank lines just before the next header belong to it.
		for end > start+1 && isBlankOrComment(lines[end-1]) {
			end--
		}
		finalNL = finalNL || end == len(lines)
		out = append(append(append(out, lines[:start]...), own...), lines[end:]...)
	} else {
		out = lines
		if len(out) > 0 && strings.TrimSpace(out[len(out)-1]) != "" {
			out = append(out, eol)
		}
		out, finalNL = append(out, own...), true
	}
	joined := strings.Join(out, "\n")
	if finalNL {
		joined += "\n"
	}
	result := []byte(joined)
	got, err := decodeTOML(file, result)
	if err != nil {
		return nil, &ParseError{File: file, Msg: fmt.Sprintf("cannot add [%s] to it (%v); does it define %s inline?", strings.Join(t.path, "."), err, t.path[0])}
	}
	if !reflect.DeepEqual(subset(lookup(got, t.path), t.want), t.want) {
		return nil, &ParseError{File: file, Msg: fmt.Sprintf("%s is defined outside a [%s] table; move it into one, or remove it", strings.Join(t.path, "."), strings.Join(t.path, "."))}
	}
	return result, nil
}

// decodeTOML parses src, reporting where it fails.
func decodeTOML(file string, src []byte) (map[string]any, error) {
	var m map[string]any
	if _, err := toml.Decode(string(src), &m); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			// The decoder counts an error on a line's newline as the next
			// line's; the byte offset is right.
			line, col := lineCol(src, pe.Position.Start)
			return nil, &ParseError{File: file, Line: line, Col: col, Msg: pe.Message}
		}
		return nil, &ParseError{File: file, Msg: err.Error()}
	}
	return m, nil
}

func lookup(m map[string]any, path []string) map[string]any {
	for _, k := range path {
		next, _ := m[k].(map[string]any)
		m = next
	}
	return m
}

// subset keeps the keys of m that want has: the user's subtables stay out
// of the comparison.
func subset(m, want map[string]any) map[string]any {
	out := map[string]any{}
	for k := range want {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	return out
}

func isBlankOrComment(line string) bool {
	t := strings.TrimSpace(line)
	return t == "" || strings.HasPrefix(t, "#")
}

func slicesEqual(a, b []string) bool { return reflect.DeepEqual(a, b) }

// tomlQuote is a TOML basic string: JSON's escapes are TOML's, except that
// TOML has no \/ and wants DEL escaped too.
func tomlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlStrings is an inline array of strings.
func tomlStrings(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = tomlQuote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

package plan

// Raw markdown of list items, kept verbatim and written back by Render.

import (
	"bytes"
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
)

// raw returns the markdown of list item li verbatim: its content lines from
// the item's content column on, with the item's indentation removed,
// trailing spaces and leading and trailing blank lines dropped. Nested lists
// stay in.
func (s *source) raw(li *ast.ListItem) string {
	return s.rawBlock(li, li.Pos(), true)
}

// rawBlock returns the markdown of block n, which starts at from: its lines
// from the enclosing list item's content column on. marker says the first
// line holds n's list marker.
func (s *source) rawBlock(n ast.Node, from int, marker bool) string {
	to := s.end(n)
	if from < 0 || to <= from {
		return ""
	}
	// goldmark's Offset is relative to the enclosing item's content column.
	col := 0
	for p := n; p != nil; p = p.Parent() {
		if item, ok := p.(*ast.ListItem); ok {
			col += item.Offset
		}
	}
	ls := s.lineStart(from)
	chunk := s.src[ls:to]
	// One line without tabs, the common case: cut at the content column.
	if line := bytes.TrimRightFunc(chunk, unicode.IsSpace); col <= len(line) && !bytes.ContainsAny(line, "\n\t") {
		v := string(line[col:])
		if sp := len(v) - len(strings.TrimLeft(v, " ")); sp < 4 {
			v = v[sp:] // as below
		}
		return v
	}
	buf := []byte(string(chunk))
	if marker {
		// Blank out the marker so the first line's content column is
		// counted like the others'.
		for i := from - ls; i < len(buf) && strings.IndexByte("-*+0123456789.)", buf[i]) >= 0; i++ {
			buf[i] = ' '
		}
	}
	lines := strings.Split(string(buf), "\n")
	for i := range lines {
		line := strings.TrimRightFunc(dropColumns(lines[i], col), unicode.IsSpace)
		if i > 0 && underline(line) && indent(lines[i]) < col {
			// A lazy continuation line of hyphens or equals signs; indented
			// as Render writes it, it would underline the paragraph above
			// into a heading. Escaped, it reads as the same text.
			line = "\\" + strings.TrimLeft(line, " ")
		}
		lines[i] = line
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	// Content that starts on the line after the marker is rendered on the
	// marker's line, where it means the same.
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	if len(lines) > 0 {
		// Up to three spaces before content are insignificant there, and
		// the marker's content column absorbs them on reparse.
		if sp := len(lines[0]) - len(strings.TrimLeft(lines[0], " ")); sp < 4 {
			lines[0] = lines[0][sp:]
		}
	}
	return strings.Join(lines, "\n")
}

// dropColumns removes n columns of leading whitespace and writes what is
// left of it as spaces. Tabs stop at multiples of 4 as in CommonMark;
// spelled out as spaces, the indentation means the same at any column
// Render puts the line.
func dropColumns(line string, n int) string {
	width, i := 0, 0
	for ; i < len(line); i++ {
		if line[i] == ' ' {
			width++
		} else if line[i] == '\t' {
			width += 4 - width%4
		} else {
			break
		}
	}
	if i == len(line) {
		return ""
	}
	if width <= n {
		return line[i:]
	}
	if width == i {
		return line[n:] // spaces only: no copy
	}
	return strings.Repeat(" ", width-n) + line[i:]
}

// afterLabel strips the "Label:" prefix from an item's raw markdown,
// including the emphasis around a bold label ("**Status:** x").
func afterLabel(raw string) string {
	marks := len(raw) - len(strings.TrimLeft(raw, "*_"))
	i := strings.IndexByte(raw, ':')
	if i < 0 {
		return ""
	}
	rest := raw[i+1:]
	for k := 0; k < marks && rest != "" && (rest[0] == '*' || rest[0] == '_'); k++ {
		rest = rest[1:]
	}
	// A value that starts on the next line is rendered on the label's line.
	return strings.TrimLeft(rest, " \t\n")
}

// escape makes s safe as inline markdown so that plain() reads it back
// unchanged: every character that could start markup gets a backslash.
func escape(s string) string {
	if !strings.ContainsAny(s, "\\`*_[]<>&!#|~") {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>&!#|~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// unbracket removes the square brackets of the format's placeholders
// ("[Topic Name]").
func unbracket(s string) string {
	for len(s) >= 2 && s[0] == '[' && s[len(s)-1] == ']' {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
}

// underline reports whether line could be a setext heading underline: only
// "=" or only "-", after up to three spaces.
func underline(line string) bool {
	t := strings.TrimLeft(line, " ")
	if t == "" || len(line)-len(t) > 3 {
		return false
	}
	return strings.Trim(t, "=") == "" || strings.Trim(t, "-") == ""
}

// indent returns the width of line's leading whitespace in columns.
func indent(line string) int {
	w := 0
	for _, c := range line {
		switch c {
		case ' ':
			w++
		case '\t':
			w += 4 - w%4
		default:
			return w
		}
	}
	return w
}

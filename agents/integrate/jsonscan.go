package integrate

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// jnode is one JSON value of a scanned document: its kind and byte span,
// and for objects the members in file order. The editor only ever needs
// spans, so values are never decoded, and everything outside the spans it
// changes keeps its bytes.
type jnode struct {
	kind       byte // '{', '[', '"' or 'v' (number, true, false, null)
	start, end int  // src[start:end] is the value
	members    []jmember
}

// jmember is one "key": value pair of an object.
type jmember struct {
	key      string
	keyStart int // offset of the key's opening quote
	value    *jnode
}

// maxDepth bounds nesting, so a hostile file cannot exhaust the stack.
const maxDepth = 512

// jscanner is a recursive-descent JSON reader that records spans. With
// comments set it also skips // and /* */ comments (JSONC, which Gemini
// CLI and opencode read); trailing commas are refused in both modes.
type jscanner struct {
	file     string
	src      []byte
	pos      int
	comments bool
}

// scanJSON parses src, the contents of file, into its root value.
func scanJSON(file string, src []byte, comments bool) (*jnode, error) {
	s := &jscanner{file: file, src: src, comments: comments}
	if err := s.skip(); err != nil {
		return nil, err
	}
	root, err := s.value(0)
	if err != nil {
		return nil, err
	}
	if err := s.skip(); err != nil {
		return nil, err
	}
	if s.pos < len(src) {
		return nil, s.errorf("unexpected %q after the top-level value", src[s.pos])
	}
	return root, nil
}

func (s *jscanner) errorf(format string, args ...any) error {
	line, col := lineCol(s.src, s.pos)
	return &ParseError{File: s.file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// skip passes whitespace and, in JSONC mode, comments.
func (s *jscanner) skip() error {
	for s.pos < len(s.src) {
		switch c := s.src[s.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			s.pos++
		case c == '/' && s.comments && s.pos+1 < len(s.src) && s.src[s.pos+1] == '/':
			for s.pos < len(s.src) && s.src[s.pos] != '\n' {
				s.pos++
			}
		case c == '/' && s.comments && s.pos+1 < len(s.src) && s.src[s.pos+1] == '*':
			end := bytes.Index(s.src[s.pos+2:], []byte("*/"))
			if end < 0 {
				return s.errorf("unterminated /* comment")
			}
			s.pos += end + 4
		default:
			return nil
		}
	}
	return nil
}

func (s *jscanner) value(depth int) (*jnode, error) {
	if depth > maxDepth {
		return nil, s.errorf("nested deeper than %d levels", maxDepth)
	}
	if s.pos >= len(s.src) {
		return nil, s.errorf("unexpected end of file")
	}
	switch c := s.src[s.pos]; c {
	case '{', '[':
		return s.container(c, depth)
	case '"':
		start := s.pos
		if err := s.str(); err != nil {
			return nil, err
		}
		return &jnode{kind: '"', start: start, end: s.pos}, nil
	default:
		return s.scalar()
	}
}

// container reads an object or an array; the two differ only in members.
func (s *jscanner) container(open byte, depth int) (*jnode, error) {
	n := &jnode{kind: open, start: s.pos}
	closer := byte('}')
	if open == '[' {
		closer = ']'
	}
	s.pos++
	for first := true; ; first = false {
		if err := s.skip(); err != nil {
			return nil, err
		}
		if s.pos < len(s.src) && s.src[s.pos] == closer && first {
			s.pos++
			n.end = s.pos
			return n, nil
		}
		if err := s.element(n, depth); err != nil {
			return nil, err
		}
		if err := s.skip(); err != nil {
			return nil, err
		}
		switch {
		case s.pos < len(s.src) && s.src[s.pos] == ',':
			s.pos++
		case s.pos < len(s.src) && s.src[s.pos] == closer:
			s.pos++
			n.end = s.pos
			return n, nil
		default:
			return nil, s.errorf("expected ',' or '%c'", closer)
		}
	}
}

// element reads one member of an object or one item of an array.
func (s *jscanner) element(n *jnode, depth int) error {
	if n.kind == '[' {
		_, err := s.value(depth + 1)
		return err
	}
	if s.pos >= len(s.src) || s.src[s.pos] != '"' {
		return s.errorf("expected a quoted key")
	}
	keyStart := s.pos
	if err := s.str(); err != nil {
		return err
	}
	var key string
	if err := json.Unmarshal(s.src[keyStart:s.pos], &key); err != nil {
		return s.errorf("bad key: %v", err)
	}
	if err := s.skip(); err != nil {
		return err
	}
	if s.pos >= len(s.src) || s.src[s.pos] != ':' {
		return s.errorf("expected ':' after key %q", key)
	}
	s.pos++
	if err := s.skip(); err != nil {
		return err
	}
	v, err := s.value(depth + 1)
	if err != nil {
		return err
	}
	n.members = append(n.members, jmember{key: key, keyStart: keyStart, value: v})
	return nil
}

package integrate

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// str reads a string, checking its escapes and that it has no raw control
// characters, as JSON requires.
func (s *jscanner) str() error {
	start := s.pos
	s.pos++ // opening quote
	for s.pos < len(s.src) {
		switch c := s.src[s.pos]; {
		case c == '"':
			s.pos++
			return nil
		case c == '\\':
			if s.pos+1 >= len(s.src) {
				return s.errorf("unterminated string")
			}
			switch s.src[s.pos+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.pos += 2
			case 'u':
				if s.pos+6 > len(s.src) || !isHex(s.src[s.pos+2:s.pos+6]) {
					return s.errorf("bad \\u escape")
				}
				s.pos += 6
			default:
				return s.errorf("bad escape \\%c", s.src[s.pos+1])
			}
		case c < 0x20:
			return s.errorf("control character in string")
		default:
			s.pos++
		}
	}
	s.pos = start
	return s.errorf("unterminated string")
}

func isHex(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// scalar reads a number or a literal: the longest run of the characters
// they can hold, checked by encoding/json.
func (s *jscanner) scalar() (*jnode, error) {
	start := s.pos
	for s.pos < len(s.src) && bytes.IndexByte([]byte("+-.0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"), s.src[s.pos]) >= 0 {
		s.pos++
	}
	tok := s.src[start:s.pos]
	var v any
	if len(tok) == 0 || json.Unmarshal(tok, &v) != nil {
		s.pos = start
		if len(tok) == 0 && s.pos < len(s.src) {
			return nil, s.errorf("unexpected %q", s.src[s.pos])
		}
		return nil, s.errorf("invalid value %q", tok)
	}
	return &jnode{kind: 'v', start: start, end: s.pos}, nil
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(src []byte, pos int) (line, col int) {
	pos = max(0, min(pos, len(src)))
	line = 1 + bytes.Count(src[:pos], []byte("\n"))
	return line, pos - (bytes.LastIndexByte(src[:pos], '\n') + 1) + 1
}

// lineIndent is the whitespace that starts the line holding pos, and
// whether only whitespace comes before pos on that line.
func lineIndent(src []byte, pos int) (indent []byte, alone bool) {
	bol := bytes.LastIndexByte(src[:pos], '\n') + 1
	i := bol
	for i < pos && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return src[bol:i], i == pos
}

// ParseError is a configuration file rgit will not touch: it does not
// parse, or a value rgit must edit has an unexpected type. Line is 0 when
// no single line is to blame.
type ParseError struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *ParseError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("read %s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("parse %s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

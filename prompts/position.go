package prompts

import "unicode/utf8"

// errorAt builds an *Error for byte offset off of s.
func errorAt(file, s string, off int, msg string) *Error {
	line, col := position(s, off)
	return &Error{File: file, Line: line, Col: col, Msg: msg}
}

// position converts a byte offset to a 1-based line and character column
// with the line breaks of Python's str.splitlines, so positions match
// what string.Template reports for the same text.
func position(s string, off int) (line, col int) {
	line, col = 1, 1
	for i := 0; i < off; {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch r {
		case '\r':
			if i < off && s[i] == '\n' {
				i++
			}
			line, col = line+1, 1
		case '\n', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
			line, col = line+1, 1
		default:
			col++
		}
	}
	return line, col
}

// firstInvalidUTF8 is the byte offset of the first invalid UTF-8 sequence.
func firstInvalidUTF8(s string) int {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(s)
}

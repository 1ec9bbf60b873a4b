package phases

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Session data is untrusted text: topics and reports come from agents,
// and whole sessions from other people's branches. Two uses, one scanner:
//
//   - Terminal and TerminalLine make it safe to print: every control
//     character but newline and tab (ESC, the C1 controls such as the
//     8-bit CSI, DEL, a lone carriage return, bidirectional overrides) is
//     shown escaped, as \x1b or \u202e, so no escape sequence reaches the
//     terminal and the user sees that something was there.
//   - CleanText and CleanLine make it fit for a file rgit writes (plan,
//     report, headings): escape sequences (CSI, OSC, DCS and their 8-bit
//     forms) are removed whole and other control characters dropped.

// Terminal escapes control characters for printing multi-line text.
func Terminal(s string) string { return scan(s, true, false) }

// TerminalLine escapes control characters for printing one line of a
// table or message: newlines and tabs become spaces.
func TerminalLine(s string) string { return scan(s, true, true) }

// CleanText removes escape sequences and control characters, keeping
// newlines and tabs; CRLF becomes LF.
func CleanText(s string) string { return scan(s, false, false) }

// CleanLine is CleanText for one line (a topic, a heading): newlines and
// tabs become spaces and the ends are trimmed.
func CleanLine(s string) string { return strings.TrimSpace(scan(s, false, true)) }

// scan is the one sanitizer. escape: show controls escaped (terminal)
// rather than drop them with their sequences (files). oneLine: newline
// and tab become a space.
func scan(s string, escape, oneLine bool) string {
	if clean(s, oneLine) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\r' && strings.HasPrefix(s[i+n:], "\n"):
			// CRLF: the LF that follows is the line break.
		case r == '\n' || r == '\t':
			if oneLine {
				b.WriteByte(' ')
			} else {
				b.WriteRune(r)
			}
		case r == utf8.RuneError && n == 1:
			// A byte that is not UTF-8 (0x9b is CSI to an 8-bit terminal).
			if escape {
				fmt.Fprintf(&b, `\x%02x`, s[i])
			} else {
				b.WriteRune(utf8.RuneError)
			}
		case !isControl(r):
			b.WriteString(s[i : i+n])
		case escape:
			if r < 0x80 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			n += sequenceLen(s[i+n:], r)
		}
		i += n
	}
	return b.String()
}

// clean is the fast path: nothing to change.
func clean(s string, oneLine bool) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if isControl(r) || r == '\r' || oneLine && (r == '\n' || r == '\t') {
			return false
		}
	}
	return true
}

// isControl: C0 controls but newline and tab, DEL, C1 controls, and the
// bidirectional embeddings, overrides and isolates that reorder text.
func isControl(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// sequenceLen is how many bytes after the control c belong to the escape
// sequence it starts: CSI parameters up to the final byte, an OSC, DCS,
// SOS, PM or APC string up to its terminator (BEL, ESC \ or ST), or the
// one character after ESC.
func sequenceLen(rest string, c rune) int {
	kind := c
	if c == 0x1b && rest != "" {
		switch rest[0] {
		case '[':
			kind = 0x9b
		case ']':
			kind = 0x9d
		case 'P', 'X', '^', '_':
			kind = 0x90
		default:
			if rest[0] >= 0x20 && rest[0] < 0x7f {
				return 1
			}
			return 0
		}
		return 1 + sequenceLen(rest[1:], kind)
	}
	switch kind {
	case 0x9b: // CSI: parameter and intermediate bytes, then one final byte
		for i := 0; i < len(rest); i++ {
			if rest[i] >= 0x40 && rest[i] <= 0x7e {
				return i + 1
			}
			if rest[i] < 0x20 || rest[i] > 0x7e {
				return i
			}
		}
		return len(rest)
	case 0x9d, 0x90, 0x98, 0x9e, 0x9f: // strings, up to BEL, ESC \ or ST
		for i := 0; i < len(rest); i++ {
			switch {
			case rest[i] == 0x07:
				return i + 1
			case rest[i] == 0x1b && i+1 < len(rest) && rest[i+1] == '\\':
				return i + 2
			case strings.HasPrefix(rest[i:], "\u009c"):
				return i + len("\u009c")
			case rest[i] == '\n':
				return i // an unterminated string ends at the line
			}
		}
		return len(rest)
	}
	return 0
}

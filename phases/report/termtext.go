package report

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// piece is a run of text with one ANSI style (SGR parameters such as "1"
// or "1;36"; "" is plain). Styles are kept apart from the text so widths
// count only what the terminal shows.
type piece struct {
	text  string
	style string
}

// word is what wrapping never splits, unless it is wider than a line:
// "**bold**," is a bold piece and a plain comma.
type word []piece

// lineBreak is the word a hard line break becomes.
var lineBreak = word{{text: "\n"}}

// SGR styles of the terminal view.
const (
	styleBold   = "1"
	styleDim    = "2"
	styleItalic = "3"
	styleUnder  = "4"
	styleStrike = "9"
	styleCode   = "36"
	styleHead1  = "1;4;35"
	styleHead2  = "1;36"
	styleHead   = "1"
	styleQuote  = "2"
)

// addStyle combines an enclosing style with an inner one.
func addStyle(outer, inner string) string {
	switch {
	case outer == "":
		return inner
	case inner == "":
		return outer
	}
	return outer + ";" + inner
}

// clean drops what a report must not send to a terminal: control
// characters (escape sequences could move the cursor, retitle the window
// or hide text) and the bidirectional overrides that reorder what is
// shown. Tabs become spaces.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case unicode.IsControl(r), r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
			return -1
		}
		return r
	}, s)
}

// runeWidth is the columns a rune takes: 0 for combining marks, 2 for the
// wide East Asian and emoji blocks, else 1. An approximation that keeps
// wrapping right for the scripts reports are written in.
func runeWidth(r rune) int {
	switch {
	case unicode.Is(unicode.Mn, r), r == 0xFE0F, r == 0x200D:
		return 0
	case r >= 0x1100 && r <= 0x115F, r >= 0x2E80 && r <= 0xA4CF, r >= 0xAC00 && r <= 0xD7A3,
		r >= 0xF900 && r <= 0xFAFF, r >= 0xFE30 && r <= 0xFE4F, r >= 0xFF00 && r <= 0xFF60,
		r >= 0xFFE0 && r <= 0xFFE6, r >= 0x1F300 && r <= 0x1F64F, r >= 0x1F900 && r <= 0x1F9FF,
		r >= 0x20000 && r <= 0x3FFFD:
		return 2
	}
	return 1
}

func textWidth(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

func (w word) width() int {
	n := 0
	for _, p := range w {
		n += textWidth(p.text)
	}
	return n
}

// words splits pieces at spaces into words, each keeping its styles.
func words(pieces []piece) []word {
	var out []word
	var cur word
	flush := func() {
		if len(cur) > 0 {
			out, cur = append(out, cur), nil
		}
	}
	for _, p := range pieces {
		if p.text == "\n" {
			flush()
			out = append(out, lineBreak)
			continue
		}
		for i, f := range strings.Split(p.text, " ") {
			if i > 0 {
				flush()
			}
			if f != "" {
				cur = append(cur, piece{text: f, style: p.style})
			}
		}
	}
	flush()
	return out
}

// wrap fills lines of at most width columns with words. A word wider than
// a line (a long URL) is cut into pieces that fit.
func wrap(ws []word, width int) [][]piece {
	width = max(width, 1)
	var lines [][]piece
	var cur []piece
	used := 0
	for _, w := range ws {
		if len(w) == 1 && w[0].text == "\n" {
			lines, cur, used = append(lines, cur), nil, 0
			continue
		}
		ww := w.width()
		if used > 0 && used+1+ww > width {
			lines, cur, used = append(lines, cur), nil, 0
		}
		for ww > width {
			head, tail := cutWord(w, width-used)
			cur = append(cur, head...)
			lines, cur, used = append(lines, cur), nil, 0
			w, ww = tail, tail.width()
		}
		if used > 0 {
			cur = append(cur, piece{text: " "})
			used++
		}
		cur = append(cur, w...)
		used += ww
	}
	if len(cur) > 0 || len(lines) == 0 {
		lines = append(lines, cur)
	}
	return lines
}

// cutWord splits a word after n columns (at least one rune).
func cutWord(w word, n int) (head, tail word) {
	for i, p := range w {
		pw := textWidth(p.text)
		if pw <= n {
			head, n = append(head, p), n-pw
			continue
		}
		cut := 0
		for cut < len(p.text) {
			r, size := utf8.DecodeRuneInString(p.text[cut:])
			if rw := runeWidth(r); rw > n && (cut > 0 || len(head) > 0) {
				break
			} else {
				n -= rw
			}
			cut += size
		}
		head = append(head, piece{text: p.text[:cut], style: p.style})
		tail = append(word{{text: p.text[cut:], style: p.style}}, w[i+1:]...)
		return head, tail
	}
	return head, nil
}

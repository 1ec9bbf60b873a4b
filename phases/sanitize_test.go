package phases

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSanitize(t *testing.T) {
	tests := []struct {
		name, in                    string
		terminal, line, text, clean string
	}{
		{"plain", "How do tides work?", "How do tides work?", "How do tides work?", "How do tides work?", "How do tides work?"},
		{"unicode kept", "Gezeiten — 潮汐 ✓", "Gezeiten — 潮汐 ✓", "Gezeiten — 潮汐 ✓", "Gezeiten — 潮汐 ✓", "Gezeiten — 潮汐 ✓"},
		{"lines", "a\n\tb\r\nc", "a\n\tb\nc", "a  b c", "a\n\tb\nc", "a  b c"},
		{"SGR colour", "\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`, `\x1b[31mred\x1b[0m`, "red", "red"},
		{"clear screen", "x\x1b[2J\x1b[Hy", `x\x1b[2J\x1b[Hy`, `x\x1b[2J\x1b[Hy`, "xy", "xy"},
		{"OSC title BEL", "a\x1b]0;pwned\x07b", `a\x1b]0;pwned\x07b`, `a\x1b]0;pwned\x07b`, "ab", "ab"},
		{"OSC 8 link ST", "\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\", `\x1b]8;;http://evil\x1b\click\x1b]8;;\x1b\`, `\x1b]8;;http://evil\x1b\click\x1b]8;;\x1b\`, "click", "click"},
		{"DCS", "a\x1bPq#0\x1b\\b", `a\x1bPq#0\x1b\b`, `a\x1bPq#0\x1b\b`, "ab", "ab"},
		{"8-bit CSI", "a\u009b31mb", `a\u009b31mb`, `a\u009b31mb`, "ab", "ab"},
		{"raw 0x9b byte", "a\x9b31mb", `a\x9b31mb`, `a\x9b31mb`, "a\uFFFD31mb", "a\uFFFD31mb"},
		{"two-char ESC", "a\x1bcb", `a\x1bcb`, `a\x1bcb`, "ab", "ab"},
		{"lone CR overwrites", "safe\rEVIL", `safe\x0dEVIL`, `safe\x0dEVIL`, "safeEVIL", "safeEVIL"},
		{"bell, backspace, NUL, DEL", "a\a\b\x00\x7fb", `a\x07\x08\x00\x7fb`, `a\x07\x08\x00\x7fb`, "ab", "ab"},
		{"bidi override", "abc\u202edcb", `abc\u202edcb`, `abc\u202edcb`, "abcdcb", "abcdcb"},
		{"unterminated OSC ends at line", "a\x1b]0;x\nb", "a\\x1b]0;x\nb", `a\x1b]0;x b`, "a\nb", "a b"},
		{"trailing ESC", "a\x1b", `a\x1b`, `a\x1b`, "a", "a"},
		{"heading with escape", "### \x1b[1mRoot\x1b[0m (Depth: 0)", `### \x1b[1mRoot\x1b[0m (Depth: 0)`, `### \x1b[1mRoot\x1b[0m (Depth: 0)`, "### Root (Depth: 0)", "### Root (Depth: 0)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, c := range []struct {
				fn        func(string) string
				name, out string
			}{{Terminal, "Terminal", tt.terminal}, {TerminalLine, "TerminalLine", tt.line}, {CleanText, "CleanText", tt.text}, {CleanLine, "CleanLine", tt.clean}} {
				if got := c.fn(tt.in); got != c.out {
					t.Errorf("%s(%q) = %q, want %q", c.name, tt.in, got, c.out)
				}
			}
		})
	}
}

// FuzzSanitize: whatever the input, no output holds a byte a terminal
// acts on (a control but newline and tab, or a C1 control), every output
// is valid UTF-8, the one-line forms hold no line break, and sanitizing
// twice changes nothing more.
func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"plain", "\x1b[31mred", "\x1b]0;t\x07", "\u009b2J", "a\r\nb", "\x9b", "\x1b]8;;u\x1b\\x", "\u202e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for name, fn := range map[string]func(string) string{"Terminal": Terminal, "TerminalLine": TerminalLine, "CleanText": CleanText, "CleanLine": CleanLine} {
			out := fn(in)
			if !utf8.ValidString(out) {
				t.Fatalf("%s(%q) = %q: not UTF-8", name, in, out)
			}
			for _, r := range out {
				if isControl(r) || r == '\r' {
					t.Fatalf("%s(%q) = %q holds control %U", name, in, out, r)
				}
			}
			if strings.HasSuffix(name, "Line") && strings.ContainsAny(out, "\n\t") {
				t.Fatalf("%s(%q) = %q holds a line break or tab", name, in, out)
			}
			if again := fn(out); strings.HasPrefix(name, "Clean") && again != out {
				t.Fatalf("%s is not idempotent on %q: %q then %q", name, in, out, again)
			}
		}
	})
}

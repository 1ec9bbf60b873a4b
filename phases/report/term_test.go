package report

import (
	"bytes"
	"strings"
	"testing"
)

const kitchenTree = "[x] Key Mechanisms (Complete)\n"

func TestRenderTerminalGolden(t *testing.T) {
	tests := []struct {
		golden string
		opt    TermOptions
	}{
		{"kitchen.w80.txt", TermOptions{Width: 80, Tree: kitchenTree}},
		{"kitchen.w80.color.txt", TermOptions{Width: 80, Color: true, Tree: kitchenTree}},
		{"kitchen.w40.txt", TermOptions{Width: 40}},
	}
	md := loadSession(t, "kitchen").Report
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			var b bytes.Buffer
			if err := RenderTerminal(&b, md, tt.opt); err != nil {
				t.Fatal(err)
			}
			golden(t, "terminal/"+tt.golden, b.Bytes())
		})
	}
}

// What `rgit show` prints: NO_COLOR at 80 columns, color, and narrow.
func TestRenderShowGolden(t *testing.T) {
	tests := []struct {
		session, golden string
		opt             TermOptions
	}{
		{"kitchen", "show.kitchen.w80.txt", TermOptions{Width: 80}},
		{"kitchen", "show.kitchen.w80.color.txt", TermOptions{Width: 80, Color: true}},
		{"tides-a", "show.tides-a.w60.txt", TermOptions{Width: 60}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			var b bytes.Buffer
			if err := RenderShow(&b, loadSession(t, tt.session), tt.opt); err != nil {
				t.Fatal(err)
			}
			golden(t, "terminal/"+tt.golden, b.Bytes())
		})
	}
}

// Every line fits the width, except code, which keeps its shape.
func TestRenderTerminalFitsWidth(t *testing.T) {
	md := loadSession(t, "kitchen").Report
	for _, width := range []int{20, 33, 57, 80, 120} {
		var b bytes.Buffer
		if err := RenderTerminal(&b, md, TermOptions{Width: width}); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(b.String(), "\n") {
			if strings.HasPrefix(l, "    ") && !strings.HasPrefix(strings.TrimSpace(l), "[") {
				continue // code block
			}
			if w := textWidth(l); w > width {
				t.Errorf("width %d: line of %d columns: %q", width, w, l)
			}
		}
	}
}

// A report cannot reach the terminal with escape sequences, other control
// characters or bidirectional overrides, in any kind of text.
func TestRenderTerminalStripsControls(t *testing.T) {
	tests := []struct{ name, md string }{
		{"paragraph", "Hello \x1b]0;pwned\x07 world \x1b[2J\n"},
		{"heading", "# Title\x1b[31m red\n"},
		{"code", "```\nrm -rf \x1b[8m hidden\n```\n"},
		{"link", "[x](https://ex.org/\x1b[1m)\n"},
		{"bidi", "safe \u202e txt.exe\n"},
		{"raw html", "<b>\u009b31m</b>\n"},
		{"invalid utf-8", "a \x9b31m b\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, color := range []bool{false, true} {
				var b bytes.Buffer
				if err := RenderTerminal(&b, []byte(tt.md), TermOptions{Width: 80, Color: color}); err != nil {
					t.Fatal(err)
				}
				out := b.String()
				if color { // rgit's own styles are the only escapes left
					for _, sgr := range []string{"\x1b[0m", "\x1b[1m", "\x1b[2m", "\x1b[4m", "\x1b[36m", "\x1b[1;4;35m", "\x1b[2m│\x1b[0m"} {
						out = strings.ReplaceAll(out, sgr, "")
					}
				}
				if strings.ContainsAny(out, "\x1b\x07\u009b\u202e") || strings.IndexByte(out, 0x9b) >= 0 {
					t.Errorf("color %v: control characters left: %q", color, out)
				}
			}
		})
	}
}

func TestColorEnabled(t *testing.T) {
	tests := []struct {
		env  map[string]string
		tty  bool
		want bool
	}{
		{map[string]string{}, true, true},
		{map[string]string{}, false, false},
		{map[string]string{"NO_COLOR": "1"}, true, false},
		{map[string]string{"TERM": "dumb"}, true, false},
		{map[string]string{"TERM": "xterm-256color"}, true, true},
	}
	for _, tt := range tests {
		if got := ColorEnabled(func(k string) string { return tt.env[k] }, tt.tty); got != tt.want {
			t.Errorf("env %v tty %v: got %v, want %v", tt.env, tt.tty, got, tt.want)
		}
	}
}

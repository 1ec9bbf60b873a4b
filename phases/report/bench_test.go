package report

import (
	"bytes"
	"strings"
	"testing"
)

// BenchmarkCompare diffs the two mock sessions (breadth 2 and 3): plans,
// sources, 15 sections and usage.
func BenchmarkCompare(b *testing.B) {
	x, y := loadSession(b, "tides-a"), loadSession(b, "tides-b")
	for b.Loop() {
		_ = Compare(x, y)
	}
}

// BenchmarkEditScript is the line diff alone on two whole reports, the
// worst case of one section.
func BenchmarkEditScript(b *testing.B) {
	x := strings.Split(string(loadSession(b, "tides-a").Report), "\n")
	y := strings.Split(string(loadSession(b, "tides-b").Report), "\n")
	for b.Loop() {
		_ = editScript(x, y)
	}
}

func BenchmarkRenderHTML(b *testing.B) {
	s := loadSession(b, "sync-local")
	var w bytes.Buffer
	for b.Loop() {
		w.Reset()
		if err := RenderHTML(&w, s); err != nil {
			b.Fatal(err)
		}
	}
}

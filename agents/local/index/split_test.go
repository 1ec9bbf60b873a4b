package index

import (
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	goSrc := `// Package p is a test.
package p

// A Mutex is a lock.
type Mutex struct {
	state int32
}

// Lock locks m.
func (m *Mutex) Lock() {
	m.lockSlow()

	m.state = 1
}

const (
	// comment inside
	starvationThresholdNs = 1e6
)
`
	md := "# Title\n\nFirst paragraph\nstill first.\n\n## Section Two\nSecond paragraph.\n\nThird.\n"
	tests := []struct {
		path string
		text string
		want []Passage
	}{
		{"p.go", goSrc, []Passage{
			{1, 2, ""}, {4, 7, "Mutex"}, {9, 14, "Mutex.Lock"}, {16, 19, "starvationThresholdNs"},
		}},
		{"doc.md", md, []Passage{
			{1, 4, "Title"}, {6, 9, "Section Two"},
		}},
		{"empty.txt", "\n\n", nil},
	}
	for _, tt := range tests {
		got := Split(tt.path, Lines(tt.text), nil)
		if len(got) != len(tt.want) {
			t.Errorf("Split(%s) = %v, want %v", tt.path, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("Split(%s)[%d] = %v, want %v", tt.path, i, got[i], tt.want[i])
			}
		}
	}
}

func TestSplitCapsLongBlocks(t *testing.T) {
	var b strings.Builder
	b.WriteString("func Long() {\n")
	for i := range 100 {
		if i%10 == 9 {
			b.WriteString("\n")
		}
		b.WriteString("\tx++\n")
	}
	b.WriteString("}\n")
	lines := Lines(b.String())
	ps := Split("long.go", lines, nil)
	next := 1
	for _, p := range ps {
		if p.End-p.Start+1 > maxCodeLines {
			t.Errorf("passage %v longer than %d lines", p, maxCodeLines)
		}
		if p.Start < next {
			t.Errorf("passage %v overlaps the previous one", p)
		}
		if p.Label != "Long" {
			t.Errorf("passage %v lost its label", p)
		}
		next = p.End + 1
	}
	if last := ps[len(ps)-1]; last.End != len(lines) {
		t.Errorf("last passage ends at %d, file has %d lines", last.End, len(lines))
	}
}

func TestText(t *testing.T) {
	tests := []struct {
		path, in, want string
		ok             bool
	}{
		{"a.txt", "plain\ntext\n", "plain\ntext\n", true},
		{"a.html", "<p>Hello &amp; <b>bye</b></p>\n<script>\nx<y\n</script>\nend", "Hello & bye\n\n\n\nend", true},
		{"a.html", "<!-- a\nb -->after", "\nafter", true},
		{"bin.dat", "ab\x00cd", "", false},
		{"latin1.txt", "caf\xe9", "", false},
	}
	for _, tt := range tests {
		got, ok := Text(tt.path, []byte(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("Text(%s, %q) = %q, %v; want %q, %v", tt.path, tt.in, got, ok, tt.want, tt.ok)
		}
		if ok && strings.Count(got, "\n") != strings.Count(tt.in, "\n") {
			t.Errorf("Text(%s, %q) changed the line count", tt.path, tt.in)
		}
	}
}

package report

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// brief renders a citation for comparison: kind, line, text, section
// path and what it resolves to.
func brief(c Citation) string {
	s := fmt.Sprintf("%s L%d %s in %s", c.Kind, c.Line, c.Text, strings.Join(c.Section, " > "))
	switch c.Kind {
	case Numbered:
		s += " -> " + c.Key()
	case Local:
		s += fmt.Sprintf(" -> %s lines %d-%d", c.Path, c.From, c.To)
	default:
		s += " -> " + c.URL
	}
	return s
}

func TestCitations(t *testing.T) {
	tests := []struct {
		name string
		md   string
		want []string
	}{
		{"numbered resolved through the sources list",
			"# R\n\n## Findings\n\n### Tides\n\n- The moon pulls [1].\n- Both [2, 1], and [3].\n\n## Sources\n\n1. Moon book (Press, 2020) - https://ex.org/moon\n2. Sun paper - <https://ex.org/sun>\n3. [Sea atlas](https://ex.org/sea)\n",
			[]string{
				"numbered L7 [1] in R > Findings > Tides -> https://ex.org/moon",
				"numbered L8 [2] in R > Findings > Tides -> https://ex.org/sun",
				"numbered L8 [1] in R > Findings > Tides -> https://ex.org/moon",
				"numbered L8 [3] in R > Findings > Tides -> https://ex.org/sea",
			}},
		{"a dangling number keeps its number as key",
			"Claim [9].\n\n## References\n\n1. Only one\n",
			[]string{"numbered L1 [9] in  -> [9]"}},
		{"unordered entries numbered by their label",
			"A [2].\n\n## Sources\n\n- [1] First, https://ex.org/1\n- [2] Second, https://ex.org/2.\n",
			[]string{"numbered L1 [2] in  -> https://ex.org/2"}},
		{"local citations, and a file entry without URL",
			"## Findings\n\n- [1] `src/sync/mutex.go:39-44` mutexLocked\n  ```go\n  x := `a.go:1-2`\n  ```\n\n## Sources\n\n1. `src/sync/mutex.go` (lines 39-44)\n",
			[]string{
				"numbered L3 [1] in Findings -> src/sync/mutex.go",
				"local L3 `src/sync/mutex.go:39-44` in Findings -> src/sync/mutex.go lines 39-44",
			}},
		{"bare URLs and links, not images or code",
			"See https://ex.org/a, <https://ex.org/b> and [c](https://ex.org/c).\n\n![img](https://ex.org/i.png) `https://ex.org/code`\n\n    [4] indented code\n",
			[]string{
				"url L1 https://ex.org/a in  -> https://ex.org/a",
				"url L1 https://ex.org/b in  -> https://ex.org/b",
				"link L1 [c](https://ex.org/c) in  -> https://ex.org/c",
			}},
		{"not citations: reversed range, task boxes, escaped brackets, words",
			"- [x] done `a.go:9-2` `localhost:8080` \\[3\\] [see] [1a]\n",
			nil},
		{"sources section text is not cited, a later section is",
			"## Sources\n\n1. https://ex.org/s\n\nhttps://ex.org/note\n\n## Methodology\n\n- [1] again\n",
			[]string{"numbered L9 [1] in Methodology -> https://ex.org/s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, c := range Citations([]byte(tt.md)) {
				got = append(got, brief(c))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestSources(t *testing.T) {
	md := "## Sources\n\nCorpus roots: `src/` is `/usr/src`.\n\n3. `a/b.go` (lines 1-2)\n4. Title (Pub, 2020) - https://ex.org/x.\n5. [Named](https://ex.org/n) and https://ex.org/second\n"
	got := Parse([]byte(md)).Sources
	want := []Source{
		{Number: 3, Text: "a/b.go (lines 1-2)", Path: "a/b.go", Line: 5},
		{Number: 4, Text: "Title (Pub, 2020) - https://ex.org/x.", URL: "https://ex.org/x", Line: 6},
		{Number: 5, Text: "Named and https://ex.org/second", URL: "https://ex.org/n", Line: 7},
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

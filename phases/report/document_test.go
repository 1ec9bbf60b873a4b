package report

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestSections(t *testing.T) {
	tests := []struct {
		name, md string
		want     []string
	}{
		{"ATX and setext, in order, lowercased",
			"# Report\n\n## Executive Summary\n\ntext\n\nFindings\n--------\n\n### Deep\n\n## Sources ##\n",
			[]string{"executive summary", "findings", "sources"}},
		{"plain text of markup, white space collapsed",
			"## *Key*  `Findings` on [Tides](https://x.example)\n\nTwo\nlines\n---\n",
			[]string{"key findings on tides", "two lines"}},
		{"not headings: code, quotes, lists, other levels",
			"```\n## In code\n```\n\n> ## Quoted\n\n- ## Listed\n\n#### Four\n\n    ## indented\n",
			nil},
		{"an empty heading has an empty title",
			"##\n\n## Two\n",
			[]string{"", "two"}},
		{"none", "Just text.\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Parse([]byte(tt.md)).Sections; !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// A number listed twice cites its first entry.
func TestSourceFirstOfANumber(t *testing.T) {
	d := Parse([]byte("Claim [2] and [3].\n\n## Sources\n\n- [2] First - https://a.example\n- [2] Again - https://b.example\n"))
	if len(d.Citations) != 2 || d.Citations[0].Source != &d.Sources[0] || d.Citations[1].Source != nil {
		t.Fatalf("citations %+v", d.Citations)
	}
}

// numberedRE is the pattern numberSpans matches by hand.
var (
	numberedRE = regexp.MustCompile(`\[(\d{1,4}(?:\s*[,;]\s*\d{1,4})*)\]`)
	numberRE   = regexp.MustCompile(`\d+`)
)

func TestNumberSpansMatchRegexp(t *testing.T) {
	for _, in := range []string{
		"see [1].", "[2, 5]", "[2 ,5]", "[2;5]", "[2 ; \t 5]", "[1 ]", "[ 1]", "[1,]", "[,1]", "[]",
		"[1234]", "[12345]", "[1, 12345]", "[1][2]", "[[1]]", "[1,2[3]", "[1\n,\n2]", "[1\v,2]", "[1\f,\r2]",
		"[１]", "[1, 2, 3, 4, 5]", "[x1]", "[1a]", "a[9]b[10, 11]c", "[", "]", "[1", "[1,", "[0007]", "[1]]",
	} {
		var want [][2]int
		b := []byte(in)
		for _, m := range numberedRE.FindAllSubmatchIndex(b, -1) {
			for _, n := range numberRE.FindAllIndex(b[m[2]:m[3]], -1) {
				want = append(want, [2]int{m[2] + n[0], m[2] + n[1]})
			}
		}
		if got := numberSpans(b); !slices.Equal(got, want) {
			t.Errorf("numberSpans(%q) = %v, regexp says %v", in, got, want)
		}
	}
}

func TestCollapseSpaceMatchesFields(t *testing.T) {
	for _, in := range []string{
		"", " ", "a", "  a  b\t\tc\n", "a\u00a0b\u0085c\u2003d\u3000e", "a\vb\fc\rd", "\xff \xfe\xfd x", "é  ü", "a\u200bb", "word  other\tthird ", "x\xc3", "\xc2 \xa0\xc2\xa0x",
	} {
		if got, want := string(collapseSpace([]byte(in))), strings.Join(strings.Fields(in), " "); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

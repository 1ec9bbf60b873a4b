package phases

import (
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

// TestCheckCites checks the citation gate's verdict on a document against
// the pages the agent read: each unbacked citation is one problem naming
// the citation and why.
func TestCheckCites(t *testing.T) {
	read := newSourceSet()
	read.add([]agents.Source{
		{URL: "https://example.org/tides", Text: "The Moon's gravity pulls the ocean toward it."},
		{URL: "https://example.org/search-hit"}, // reported without text
	}, time.Unix(0, 0))
	tests := []struct {
		name          string
		doc           string
		want          []string // problems' substrings, in order
		passed, total int
	}{
		{"numbered and fetched", "Tides [1].\n\n## Sources\n\n1. Tides - https://example.org/tides\n", nil, 1, 1},
		{"trailing slash and case", "See <HTTPS://Example.org/tides/>.\n", nil, 1, 1},
		{"never fetched", "Tides [1] and [2].\n\n## Sources\n\n1. https://example.org/tides\n2. Elsewhere - https://example.net/x\n",
			[]string{"citation [2] https://example.net/x was never fetched"}, 1, 2},
		{"progress file", "## Findings\n- A claim (Source 1).\n\n## Sources\n- Source 1: Page - https://example.net/y\n",
			[]string{"citation Source 1 https://example.net/y was never fetched"}, 0, 1},
		{"quotation found", "As \"gravity pulls the ocean toward it\" says [1].\n\n## Sources\n\n1. https://example.org/tides\n", nil, 1, 1},
		{"quotation not in the page", "As \"gravity pushes the ocean away\" says [1].\n\n## Sources\n\n1. https://example.org/tides\n",
			[]string{`quotation "gravity pushes the ocean away" is not in the text fetched`}, 0, 1},
		{"quotation of a page without text", "As \"anything at all here\" says [1].\n\n## Sources\n\n1. https://example.org/search-hit\n",
			[]string{"recorded no text"}, 0, 1},
		{"quotation in one of two pages", "As \"gravity pulls the ocean toward it\" [1][2].\n\n## Sources\n\n1. https://example.org/tides\n2. https://example.org/search-hit\n",
			nil, 2, 2},
		{"link", "See [the page](https://example.net/z).\n", []string{"citation https://example.net/z was never fetched"}, 0, 1},
		{"progress file's grouped references", "## Findings\n- A claim (Source 1, Source 2).\n- Another (Source 3; Source 1).\n\n## Sources\n" +
			"- Source 1: Tides - https://example.org/tides\n- Source 2: Page - https://example.net/y\n- Source 3: Other - https://example.net/w\n",
			[]string{"citation Source 2 https://example.net/y was never fetched", "citation Source 3 https://example.net/w was never fetched"}, 1, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			problems, passed, total := checkCites([]byte(tc.doc), read)
			if passed != tc.passed || total != tc.total {
				t.Errorf("passed %d of %d, want %d of %d", passed, total, tc.passed, tc.total)
			}
			if len(problems) != len(tc.want) {
				t.Fatalf("problems %q, want %q", problems, tc.want)
			}
			for i, p := range problems {
				if !strings.Contains(p.String(), tc.want[i]) {
					t.Errorf("problem %q, want %q", p, tc.want[i])
				}
			}
			if len(problems) > 0 && !strings.Contains(citeError(problems).Error(), tc.want[0]) {
				t.Errorf("the recovery error %q does not name the citation", citeError(problems))
			}
		})
	}
}

// TestMarkUnverified checks the marks: after each citation of an
// unbacked page and on its sources entry, never twice, and nowhere else.
// TestCheckCitesAfterReread checks that a page read again with new text
// is checked against the new text: the gate remembers each quoted page's
// text between checks, and a later read must not be hidden by it.
func TestCheckCitesAfterReread(t *testing.T) {
	doc := []byte("As \"the tide turns at noon today\" says [1].\n\n## Sources\n\n1. https://example.org/t\n")
	read := newSourceSet()
	read.add([]agents.Source{{URL: "https://example.org/t", Text: "Nothing about it."}}, time.Unix(0, 0))
	if _, passed, _ := checkCites(doc, read); passed != 0 {
		t.Fatalf("a quotation the page lacks passed")
	}
	read.add([]agents.Source{{URL: "https://example.org/t/", Text: "Here the tide\n  turns at noon today."}}, time.Unix(1, 0))
	if problems, passed, total := checkCites(doc, read); passed != 1 || total != 1 {
		t.Errorf("after the page was read again: passed %d of %d (%v), want 1 of 1", passed, total, problems)
	}
}

func TestMarkUnverified(t *testing.T) {
	doc := "Tides [1] and [2]. See <https://example.net/x> and [a link](https://example.net/x).\n" +
		"- A claim (Source 2).\n- Two (Source 1, Source 2). One (Source 1).\n\n## Sources\n\n1. https://example.org/tides\n2. Elsewhere - https://example.net/x\n"
	want := "Tides [1] and [2] *(unverified)*. See <https://example.net/x> *(unverified)* and [a link](https://example.net/x) *(unverified)*.\n" +
		"- A claim (Source 2) *(unverified)*.\n- Two (Source 1, Source 2) *(unverified)*. One (Source 1).\n\n## Sources\n\n1. https://example.org/tides\n2. Elsewhere - https://example.net/x *(unverified)*\n"
	read := newSourceSet()
	read.add([]agents.Source{{URL: "https://example.org/tides", Text: "t"}}, time.Unix(0, 0))
	problems, _, _ := checkCites([]byte(doc), read)
	got := string(markUnverified([]byte(doc), problems))
	if got != want {
		t.Errorf("marked\n%s\nwant\n%s", got, want)
	}
	if again := string(markUnverified([]byte(got), problems)); again != got {
		t.Errorf("marking twice changed it:\n%s", again)
	}
}

// TestSourceRecord checks a record reads back as written, and that a file
// of the agent's own is not a record.
func TestSourceRecord(t *testing.T) {
	src := agents.Source{URL: "https://example.org/a?b=1", Title: "A page", Tool: "WebFetch",
		Time: time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC), Text: "line one\n\nline two"}
	got, ok := parseSourceRecord(sourceRecord(src))
	if !ok || got != src {
		t.Errorf("read back %+v, %v; want %+v", got, ok, src)
	}
	if _, ok := parseSourceRecord([]byte("# My notes\n\nURL: https://example.org/forged\n")); ok {
		t.Error("a file not starting with the URL line was read as a record")
	}
}

package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// corpusLink links local citations to the files under testdata/corpus, as
// seen from a page written in testdata/.
func corpusLink(path string) string {
	if _, err := os.Stat(filepath.Join("testdata", "corpus", path)); err != nil {
		return ""
	}
	return "corpus/" + path
}

// Every link of the page goes somewhere: an anchor that exists on the
// page, a web URL, or a file that exists; and every citation of the report
// that can be resolved is a link.
func TestRenderHTMLLinksResolve(t *testing.T) {
	tests := []struct {
		session string
		cites   int // citation links: numbered with an entry, and local
	}{
		{"kitchen", 7},
		{"tides-a", 35},
		{"sync-local", 54},
	}
	for _, tt := range tests {
		t.Run(tt.session, func(t *testing.T) {
			s := loadSession(t, tt.session)
			s.FileLink = corpusLink
			p, _ := renderPage(t, s)
			cites := 0
			p.each(func(n *html.Node) {
				if n.Data != "a" {
					return
				}
				href := attr(n, "href")
				if hasClass(n, "cite") {
					cites++
					if !strings.HasPrefix(href, "#") {
						t.Errorf("citation %q links outside the page: %q", innerText(n), href)
					}
				}
				switch {
				case strings.HasPrefix(href, "#"):
					if !p.ids[href[1:]] {
						t.Errorf("link %q to a missing anchor %q", innerText(n), href)
					}
				case strings.HasPrefix(href, "https://"), strings.HasPrefix(href, "http://"):
				default:
					if _, err := os.Stat(filepath.Join("testdata", filepath.FromSlash(href))); err != nil {
						t.Errorf("link %q to a missing file %q", innerText(n), href)
					}
				}
			})
			if cites != tt.cites {
				t.Errorf("%d citation links, want %d", cites, tt.cites)
			}
			if !p.ids[treeID] || !p.ids[metaID] {
				t.Errorf("page lacks the topic tree or the session block")
			}
		})
	}
}

// The kitchen page has each part the issue asks for.
func TestRenderHTMLParts(t *testing.T) {
	s := loadSession(t, "kitchen")
	s.FileLink = corpusLink
	p, raw := renderPage(t, s)
	count := map[string]int{}
	p.each(func(n *html.Node) {
		switch {
		case n.Data == "li" && hasClass(n, "topic"):
			count["topic"]++
			for _, st := range []string{"status-complete", "status-inreview", "status-inprogress", "status-pending"} {
				if hasClass(n, st) {
					count[st]++
				}
			}
			if hasClass(n, "exhausted") {
				count["exhausted"]++
			}
		case n.Data == "table":
			count["table"]++
		case n.Data == "h2" && attr(n, "id") == "sources":
			count["sources anchor"]++
		case n.Data == "a" && attr(n, "href") == "corpus/src/tides/moon.go":
			count["file link"]++
		case strings.HasPrefix(attr(n, "id"), "fn:"):
			count["footnote"]++
		case n.Data == "a" && hasClass(n, "image-link"):
			count["image link"]++
		}
	})
	want := map[string]int{"topic": 4, "status-complete": 1, "status-inreview": 1, "status-inprogress": 1, "status-pending": 1,
		"exhausted": 1, "table": 4, "sources anchor": 1, "file link": 1, "footnote": 1, "image link": 1}
	for k, v := range want {
		if count[k] != v {
			t.Errorf("%s: %d, want %d", k, count[k], v)
		}
	}
	for _, s := range []string{"claude:claude-opus-4-6", "1 of 4 complete", "Tidal &lt;Energy&gt; &amp; &#34;Power&#34;", "$1.4845", "@media print", "max-width: 480px"} {
		if !bytes.Contains(raw, []byte(s)) {
			t.Errorf("page lacks %q", s)
		}
	}
}

// BenchmarkRenderHTML renders the local researcher's demo report.
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

package report

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// page is a rendered page parsed back by a real HTML parser.
type page struct {
	root *html.Node
	ids  map[string]bool
}

func renderPage(t testing.TB, s *Session) (*page, []byte) {
	t.Helper()
	var b bytes.Buffer
	if err := RenderHTML(&b, s); err != nil {
		t.Fatal(err)
	}
	root, err := html.Parse(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	p := &page{root: root, ids: map[string]bool{}}
	p.each(func(n *html.Node) {
		if id := attr(n, "id"); id != "" {
			p.ids[id] = true
		}
	})
	return p, b.Bytes()
}

// each visits every element.
func (p *page) each(visit func(*html.Node)) {
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			visit(n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(p.root)
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasClass(n *html.Node, class string) bool {
	return strings.Contains(" "+attr(n, "class")+" ", " "+class+" ")
}

func innerText(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// Page IDs are unique even when a report numbers two source lists from 1.
func TestRenderHTMLUniqueIDs(t *testing.T) {
	md := "A [1].\n\n## Sources\n\n1. https://ex.org/a\n\nMore:\n\n1. https://ex.org/b\n"
	p, _ := renderPage(t, &Session{Report: []byte(md)})
	seen := map[string]int{}
	p.each(func(n *html.Node) {
		if id := attr(n, "id"); id != "" {
			seen[id]++
		}
	})
	for id, n := range seen {
		if n > 1 {
			t.Errorf("id %q used %d times", id, n)
		}
	}
	if seen["rgit-source-1"] != 1 {
		t.Errorf("the source entry has no ID")
	}
}

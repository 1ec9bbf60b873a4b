package report

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"
)

func TestSafeHref(t *testing.T) {
	tests := []struct {
		dest string
		ok   bool
	}{
		{"https://ex.org/a?b=c#d", true},
		{"http://ex.org", true},
		{"mailto:a@ex.org", true},
		{"#sources", true},
		{"../../src/a.go", true},
		{"src/a.go#L3-L9", true},
		{"javascript:alert(1)", false},
		{"JaVaScRiPt:alert(1)", false},
		{" javascript:alert(1)", false},
		{"java\tscript:alert(1)", false},
		{"java\nscript:alert(1)", false},
		{"data:text/html;base64,AAAA", false},
		{"data:image/png;base64,AAAA", false},
		{"vbscript:msgbox(1)", false},
		{"file:///etc/passwd", false},
		{"//evil.example/x", false},
		{`\\evil.example\x`, false},
		{"https:evil", false},
		{"ftp://ex.org/f", false},
		{"", false},
		{"%zz", false},
	}
	for _, tt := range tests {
		if _, ok := safeHref(tt.dest); ok != tt.ok {
			t.Errorf("safeHref(%q) = %v, want %v", tt.dest, ok, tt.ok)
		}
	}
}

// allowedTags are the elements a page may have: what the template and
// goldmark's safe mode write. Anything else came from a report.
var allowedTags = map[string]bool{}

func init() {
	for _, t := range strings.Fields(`html head body meta title style header section nav main footer p dl div dt dd
		code pre table caption thead tbody tr th td details summary h1 h2 h3 h4 h5 h6 ul ol li a span
		blockquote em strong del hr br sup input`) {
		allowedTags[t] = true
	}
}

var (
	allowedAttrs = map[string]bool{"id": true, "class": true, "href": true, "title": true, "rel": true, "lang": true,
		"charset": true, "name": true, "content": true, "http-equiv": true, "aria-label": true, "start": true,
		"style": true, "type": true, "checked": true, "disabled": true, "role": true}
	alignStyle = regexp.MustCompile(`^text-align:\s*(left|right|center);?$`)
)

// inertProblems lists what in a page could run or fetch: elements and
// attributes outside the allow lists, event handlers, unsafe link schemes,
// styles that load, a missing Content-Security-Policy.
func inertProblems(p *page) []string {
	var out []string
	csp, styles := false, 0
	p.each(func(n *html.Node) {
		if !allowedTags[n.Data] {
			out = append(out, "element <"+n.Data+">")
		}
		for _, a := range n.Attr {
			switch {
			case !allowedAttrs[a.Key]:
				out = append(out, "attribute "+a.Key+" on <"+n.Data+">")
			case a.Key == "href":
				if _, ok := safeHref(a.Val); !ok {
					out = append(out, "href "+a.Val)
				}
			case a.Key == "style" && !alignStyle.MatchString(a.Val):
				out = append(out, "style attribute "+a.Val)
			case a.Key == "type" && (n.Data != "input" || a.Val != "checkbox"):
				out = append(out, "type "+a.Val+" on <"+n.Data+">")
			}
		}
		switch n.Data {
		case "meta":
			if attr(n, "http-equiv") == "Content-Security-Policy" && strings.HasPrefix(attr(n, "content"), "default-src 'none';") {
				csp = true
			}
		case "style":
			styles++
			css := strings.ToLower(innerText(n))
			if strings.Contains(css, "url(") || strings.Contains(css, "@import") || n.Parent.Data != "head" {
				out = append(out, "a style that loads, or outside the head")
			}
		case "input":
			if attr(n, "disabled") == "" && !hasAttr(n, "disabled") {
				out = append(out, "an enabled input")
			}
		}
	})
	if !csp {
		out = append(out, "no Content-Security-Policy forbidding fetches")
	}
	if styles != 1 {
		out = append(out, "more than the page's own style")
	}
	return out
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

// A hostile report, and hostile session fields, render inert: no script,
// no event handler, no unsafe link, nothing fetched; the code block's
// script is shown as text.
func TestRenderHTMLHostileInert(t *testing.T) {
	s := &Session{Name: "<b>n</b>", Question: `"><script>alert('q')</script>`, Branch: "research/x",
		Agents: Agents{Research: "<img src=x onerror=alert(1)>"}, Exhausted: []string{"</li><script>x</script>"},
		Report: readReport(t, "hostile.md"), FileLink: func(string) string { return "javascript:alert(1)" }}
	p, raw := renderPage(t, s)
	for _, problem := range inertProblems(p) {
		t.Error(problem)
	}
	if bytes.Contains(bytes.ToLower(raw), []byte("<script")) {
		t.Error("page contains <script")
	}
	var code string
	p.each(func(n *html.Node) {
		if n.Data == "code" && strings.Contains(innerText(n), "code is shown") {
			code = innerText(n)
		}
	})
	if !strings.Contains(code, "<script>alert('code is shown, not run')</script>") {
		t.Errorf("code block not shown as text: %q", code)
	}
}

// FuzzReport feeds arbitrary Markdown, as an agent could write it, to the
// citation parser and the HTML page: no panic, every citation located
// inside the report, and a page that stays inert.
func FuzzReport(f *testing.F) {
	for _, p := range []string{"sessions/kitchen/report.md", "reports/hostile.md"} {
		if data, err := os.ReadFile(filepath.Join("testdata", p)); err == nil {
			f.Add(string(data))
		}
	}
	for _, s := range []string{"[1] `a:1-2` https://x.y [l](javascript:x)\n\n## Sources\n\n1. s\n",
		"<a href=\"javascript:x\">[1]</a>", "![x](data:image/png,x) <javascript:x>", "[^1]\n\n[^1]: <script>x</script>",
		"| a | [1] |\n| - | - |\n| `b:1-1` | <img src=x onerror=y> |\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		src := []byte(md)
		lines := bytes.Count(src, []byte("\n")) + 1
		for _, c := range Citations(src) {
			if c.Offset < 0 || c.Offset > len(src) || c.Line < 1 || c.Line > lines || c.Text == "" {
				t.Fatalf("citation out of the report: %+v", c)
			}
		}
		var b bytes.Buffer
		if err := RenderHTML(&b, &Session{Report: src}); err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(src) {
			return // the page is still inert, but x/net/html's view of invalid bytes is not ours to check
		}
		root, err := html.Parse(&b)
		if err != nil {
			t.Fatal(err)
		}
		for _, problem := range inertProblems(&page{root: root}) {
			t.Errorf("%s in the page of %q", problem, md)
		}
	})
}

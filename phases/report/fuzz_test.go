package report

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"
)

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

package local

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestVerifyCitations(t *testing.T) {
	root := filepath.Join(t.TempDir(), "notes")
	writeFiles(t, root, map[string]string{
		"a.go":      "package a\n\n// Lock waits.\nfunc Lock() {\n\tx := 1\n}\n",
		"page.html": "<h1>Title</h1>\n<p>Some <b>bold</b> text &amp; more</p>\n",
		"sub/b.md":  "# B\n\nline two ``` with a fence\n",
	})
	fence := func(lines ...string) string {
		return "  ```go\n" + strings.Join(lines, "\n") + "\n  ```\n"
	}
	tests := []struct {
		name   string
		report string
		want   []string // reasons, in order
	}{
		{"valid quote", "- `notes/a.go:3-5` Lock\n" + fence("  // Lock waits.", "  func Lock() {", "  \tx := 1"), nil},
		{"valid without quote", "see `notes/a.go:1-6`.\n", nil},
		{"trailing spaces ignored", "- `notes/a.go:3-3`\n" + fence("  // Lock waits.   "), nil},
		{"html as text", "- `notes/page.html:2-2`\n  ```html\n  Some bold text & more\n  ```\n", nil},
		{"quote with a longer fence", "- `notes/sub/b.md:3-3`\n  ````md\n  line two ``` with a fence\n  ````\n", nil},
		{"wrong text", "- `notes/a.go:3-3`\n" + fence("  // Lock never waits."), []string{"quoted text differs"}},
		{"wrong lines", "- `notes/a.go:2-3`\n" + fence("  // Lock waits."), []string{"quoted text differs"}},
		{"out of range", "`notes/a.go:5-9`\n", []string{"lines out of range"}},
		{"backwards range", "`notes/a.go:5-4`\n", []string{"lines out of range"}},
		{"missing file", "`notes/nope.go:1-1`\n", []string{"no such file"}},
		{"escape", "`notes/../notes/a.go:1-1`\n", []string{"no such file"}},
		{"unknown root", "`other/a.go:1-1`\n", []string{"no such file"}},
		{"citation inside a quote is data", "- `notes/a.go:3-3`\n  ```\n  // Lock waits.\n  ```\n" +
			"```\n`notes/nope.go:1-1`\n```\n", nil},
		{"two failures", "`notes/a.go:0-1` and `x/y.go:1-1`\n", []string{"lines out of range", "no such file"}},
	}
	for _, tt := range tests {
		errs := VerifyCitations([]byte(tt.report), []string{root})
		if len(errs) != len(tt.want) {
			t.Errorf("%s: errors %v, want %d", tt.name, errs, len(tt.want))
			continue
		}
		for i, e := range errs {
			if !strings.Contains(e.Reason, tt.want[i]) {
				t.Errorf("%s: error %d = %v, want %q", tt.name, i, e, tt.want[i])
			}
		}
	}
}

func TestResolveCiteDeepLabel(t *testing.T) {
	base := t.TempDir()
	writeFiles(t, base, map[string]string{"a/docs/x.md": "x\n", "b/docs/x.md": "y\n"})
	roots := []string{filepath.Join(base, "a", "docs"), filepath.Join(base, "b", "docs")}
	if got, want := resolveCite("b/docs/x.md", roots), filepath.Join(base, "b", "docs", "x.md"); got != want {
		t.Errorf("resolveCite(b/docs/x.md) = %q, want %q", got, want)
	}
	if got := resolveCite("docs/missing.md", roots); got != "" {
		t.Errorf("resolveCite(docs/missing.md) = %q, want none", got)
	}
}

package plan

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse feeds the parser arbitrary files: it must not panic, and every
// input it accepts must round-trip: the rendering parses to the same plan
// and renders to itself. make test runs it briefly.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join(plansDir, "*.md"))
	more, _ := filepath.Glob(filepath.Join(plansDir, "*", "*.md"))
	for _, s := range append(seeds, more...) {
		src, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add(Render(fullPlan(2, 2)))
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := Parse("fuzz.md", src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error is %T, not *Error: %v", err, err)
			}
			return
		}
		out := Render(p)
		q, err := Parse("rendered.md", out)
		if err != nil {
			t.Fatalf("rendering of a valid plan does not parse: %v\n%s", err, out)
		}
		if d := diffPlans(p, q); d != "" {
			t.Fatalf("round trip: %s\n%s", d, out)
		}
		if again := Render(q); !bytes.Equal(again, out) {
			t.Fatalf("render is not a fixed point:\n%s\n---\n%s", out, again)
		}
		// The views must not panic on any valid plan.
		_ = Tree(p)
		_ = Mermaid(p)
		_ = Slugs(p, nil)
		_ = Next(p, nil)
	})
}

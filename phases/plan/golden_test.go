package plan

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden/plan")

// goldenDir holds the expected renderings.
const goldenDir = "../../testdata/golden/plan"

// golden compares got with the golden file name, or rewrites it with
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(goldenDir, name)
	if *update {
		if err := os.MkdirAll(goldenDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (review, then go test -update):\ngot:\n%s\nwant:\n%s", name, got, want)
	}
}

// The rendering, text tree and Mermaid chart of each plan with distinct
// content. The variants need no golden files: they must render exactly as
// canonical.md does (TestVariantsRenderCanonical).
func TestGolden(t *testing.T) {
	for _, f := range []string{"canonical.md", "extra_items.md", "special_names.md"} {
		t.Run(f, func(t *testing.T) {
			p := readPlan(t, f)
			base := strings.TrimSuffix(f, ".md")
			golden(t, base+".render.md", Render(p))
			golden(t, base+".tree.txt", []byte(Tree(p)))
			golden(t, base+".mermaid.md", []byte(Mermaid(p)))
		})
	}
}

// The canonical rendering of canonical.md is the file itself.
func TestCanonicalIsFixedPoint(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(plansDir, "canonical.md"))
	if err != nil {
		t.Fatal(err)
	}
	if got := Render(readPlan(t, "canonical.md")); !bytes.Equal(got, src) {
		t.Errorf("canonical.md does not render to itself:\n%s", got)
	}
}

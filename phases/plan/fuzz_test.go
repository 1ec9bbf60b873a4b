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
			if p == nil {
				t.Fatal("no plan returned with the error")
			}
			// A salvaged draft must be safe to look at.
			_, _, _, _ = Render(p), Tree(p), Mermaid(p), Next(p, nil)
			for _, tp := range p.Topics {
				_ = Ancestors(p, tp)
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

// FuzzAddSubtopics feeds agent proposals with arbitrary text through
// AddSubtopics: whatever is added, the plan must stay valid and round-trip,
// so untrusted output can never corrupt research_plan.md.
func FuzzAddSubtopics(f *testing.F) {
	f.Add("Memory Models", "How CPUs order stores.", "Cites the manual")
	f.Add("[C# & F#] (depth 2)", "a\nb  *c*", "---")
	f.Add("Status: Complete", "### Injected (Depth: 0)", "- Status: Done")
	f.Add("`x`", "<!-- -->", "1. one")
	f.Fuzz(func(t *testing.T, name, desc, crit string) {
		p := fullPlan(2, 1)
		p.Depth = 2
		parent := p.Topics[1].Name
		added, dropped := p.AddSubtopics(parent, []Proposal{{Name: name, Description: desc, Criteria: []string{crit, crit + " 2"}}})
		if len(added)+len(dropped) != 1 {
			t.Fatalf("added %d, dropped %d of one proposal", len(added), len(dropped))
		}
		if err := p.Validate("plan.md"); err != nil {
			t.Fatalf("plan invalid after adding %q: %v", name, err)
		}
		out := Render(p)
		q, err := Parse("plan.md", out)
		if err != nil {
			t.Fatalf("rendering does not parse: %v\n%s", err, out)
		}
		if d := diffPlans(p, q); d != "" {
			t.Fatalf("round trip: %s\n%s", d, out)
		}
	})
}

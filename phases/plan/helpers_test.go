package plan

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// plansDir holds the plan files the tests read.
const plansDir = "../../testdata/plans"

// readPlan parses a file under testdata/plans and fails the test on error.
func readPlan(t testing.TB, name string) *Plan {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(plansDir, name))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(name, src)
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	return p
}

// diffPlans describes the first difference between two plans, ignoring
// source lines (a rendered plan has its own), or returns "".
func diffPlans(a, b *Plan) string {
	if a.Topic != b.Topic || a.Breadth != b.Breadth || a.Depth != b.Depth {
		return fmt.Sprintf("metadata %q/%d/%d != %q/%d/%d", a.Topic, a.Breadth, a.Depth, b.Topic, b.Breadth, b.Depth)
	}
	if len(a.Topics) != len(b.Topics) {
		return fmt.Sprintf("%d topics != %d", len(a.Topics), len(b.Topics))
	}
	for i, x := range a.Topics {
		y := b.Topics[i]
		switch {
		case x.Name != y.Name, x.Depth != y.Depth, x.Status != y.Status, x.Parent != y.Parent:
			return fmt.Sprintf("topic %d: %q/%d/%q/%q != %q/%d/%q/%q", i, x.Name, x.Depth, x.Status, x.Parent, y.Name, y.Depth, y.Status, y.Parent)
		case x.Description != y.Description:
			return fmt.Sprintf("topic %q description %q != %q", x.Name, x.Description, y.Description)
		case !slices.Equal(x.Criteria, y.Criteria):
			return fmt.Sprintf("topic %q criteria %q != %q", x.Name, x.Criteria, y.Criteria)
		case !slices.Equal(x.Extra, y.Extra):
			return fmt.Sprintf("topic %q extra %q != %q", x.Name, x.Extra, y.Extra)
		}
	}
	return ""
}

// fullPlan builds a plan with every slot filled: breadth roots, each with
// breadth children, down to depth, in depth-first plan order, all Pending.
func fullPlan(breadth, depth int) *Plan {
	p := &Plan{Topic: fmt.Sprintf("A full plan of breadth %d and depth %d", breadth, depth), Breadth: breadth, Depth: depth}
	var add func(parent string, d int)
	add = func(parent string, d int) {
		for i := 1; i <= breadth; i++ {
			name := fmt.Sprintf("Topic %d", i)
			if parent != "" {
				name = fmt.Sprintf("%s.%d", parent, i)
			}
			p.Topics = append(p.Topics, &Topic{
				Name: name, Depth: d, Status: Pending, Parent: parent,
				Description: "What the research on " + name + " must cover, in one sentence of plain prose.",
				Criteria:    []string{"Names at least two primary sources", "Answers the question with numbers"},
			})
			if d < depth {
				add(name, d+1)
			}
		}
	}
	add("", 0)
	return p
}

// validFiles are the plan files that must parse: the canonical plan, each
// tolerated variant and the plans with unusual content.
func validFiles(t testing.TB) []string {
	t.Helper()
	files := []string{"canonical.md", "extra_items.md", "special_names.md"}
	variants, err := filepath.Glob(filepath.Join(plansDir, "variants", "*.md"))
	if err != nil || len(variants) == 0 {
		t.Fatalf("no variants in %s: %v", plansDir, err)
	}
	for _, v := range variants {
		files = append(files, filepath.Join("variants", filepath.Base(v)))
	}
	return files
}

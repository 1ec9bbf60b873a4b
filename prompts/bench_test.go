package prompts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchVars fills every variable research.md uses with realistic sizes.
func benchVars() map[string]string {
	return map[string]string{
		"original_topic": "How do heat pumps perform in cold climates, and what limits them?",
		"session_name":   "heat-pumps", "breadth": "3", "depth": "3", "timeout": "1200",
		"topic":               "Defrost Cycles - Control Strategies",
		"topic_slug":          "defrost-cycles-control-strategies",
		"topic_depth":         "2",
		"topic_description":   "How defrost control strategies trade efficiency for reliability.",
		"acceptance_criteria": strings.Repeat("- Quantifies the energy cost of each strategy with sources\n", 3),
		"ancestors":           strings.Repeat("- Performance Limits: what bounds efficiency below -15 C\n", 2),
		"review_gaps":         strings.Repeat("- Cite a primary source for the 2021 field trial figures\n", 2),
		"output_file":         "/home/u/repo/.research/heat-pumps/progress/defrost-cycles-control-strategies.md",
		"subtopic_limit":      "3",
		"workspace":           "/home/u/repo/.research/heat-pumps",
		"plan_file":           "/home/u/repo/.research/heat-pumps/research_plan.md",
	}
}

// BenchmarkRender renders research.md from the parsed Set.
func BenchmarkRender(b *testing.B) {
	set, vars := Default(), benchVars()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := set.Render("research.md", vars); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderRegexpBaseline is the baseline for BenchmarkRender: a
// direct port of Python's substitute, matching string.Template's pattern
// on every render, as a naive implementation would.
func BenchmarkRenderRegexpBaseline(b *testing.B) {
	src, vars := string(DefaultSource("research.md")), benchVars()
	b.ReportAllocs()
	for b.Loop() {
		if _, at := reference(src, vars); at >= 0 {
			b.Fatal("baseline rejected the template")
		}
	}
}

// BenchmarkValidate validates all eight default templates.
func BenchmarkValidate(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, name := range Names {
			if err := Validate(name, DefaultSource(name)); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkLoad loads a template dir holding all eight files, as every
// run does before the loop.
func BenchmarkLoad(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "templates")
	if _, err := Install(dir); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(dir); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadReadBaseline only reads the eight files: the I/O floor
// under BenchmarkLoad.
func BenchmarkLoadReadBaseline(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "templates")
	if _, err := Install(dir); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, name := range Names {
			if _, err := os.ReadFile(filepath.Join(dir, name)); err != nil {
				b.Fatal(err)
			}
		}
	}
}

package mock

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rgit-dev/rgit/agents"
)

func researchTask(b *testing.B) agents.Task {
	ws := filepath.Join(b.TempDir(), ".research", "s")
	return agents.Task{Phase: agents.PhaseResearch, Dir: ws, Output: filepath.Join(ws, "progress", "t.md"),
		Brief: agents.Brief{Question: "How do heat pumps perform in cold climates?", Breadth: 3, Depth: 3,
			Topic: "Key Mechanisms - Defrost Cycles", TopicDepth: 1, CanSubdivide: true,
			Criteria: []string{"Quantifies the energy cost", "Names the main strategies"}}}
}

// BenchmarkResearch is one research call: generate and write a progress
// file.
func BenchmarkResearch(b *testing.B) {
	a, task := New(Options{}), researchTask(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Run(context.Background(), task); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResearchGenerate is the text generation alone, without I/O.
func BenchmarkResearchGenerate(b *testing.B) {
	brief := researchTask(b).Brief
	b.ReportAllocs()
	for b.Loop() {
		if research(brief).body == "" {
			b.Fatal("empty progress file")
		}
	}
}

// BenchmarkResearchWriteBaseline writes the same bytes with os.WriteFile:
// the I/O floor under BenchmarkResearch.
func BenchmarkResearchWriteBaseline(b *testing.B) {
	task := researchTask(b)
	body := []byte(research(task.Brief).body)
	if err := os.MkdirAll(filepath.Dir(task.Output), 0o755); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := os.WriteFile(task.Output, body, 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSynthesize builds the report of a breadth 3 depth 3 tree (120
// topics) from their progress files.
func BenchmarkSynthesize(b *testing.B) {
	root := b.TempDir()
	ws := filepath.Join(root, ".research", "s")
	a := New(Options{})
	var refs []agents.TopicRef
	var add func(name, parent string, depth int)
	add = func(name, parent string, depth int) {
		task := agents.Task{Phase: agents.PhaseResearch, Dir: ws, Output: filepath.Join(ws, "progress", slug(name)+".md"),
			Brief: agents.Brief{Question: "Q?", Breadth: 3, Depth: 3, Topic: name, TopicDepth: depth}}
		if _, err := a.Run(context.Background(), task); err != nil {
			b.Fatal(err)
		}
		refs = append(refs, agents.TopicRef{Name: name, Depth: depth, Parent: parent, Progress: task.Output})
		if depth < 3 {
			for _, s := range subAspects[:3] {
				add(name+" - "+s, name, depth+1)
			}
		}
	}
	for _, r := range rootAspects[:3] {
		add(r, "", 0)
	}
	task := agents.Task{Phase: agents.PhaseSynthesize, Dir: ws, Output: filepath.Join(root, "reports", "s", "report.md"),
		Brief: agents.Brief{Question: "Q?", Breadth: 3, Depth: 3, Topics: refs}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Run(context.Background(), task); err != nil {
			b.Fatal(err)
		}
	}
}

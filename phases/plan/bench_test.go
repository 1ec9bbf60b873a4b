package plan

import (
	"fmt"
	"slices"
	"testing"

	"github.com/yuin/goldmark/text"
)

// Full plans as the loop sees them at the end of a session: breadth 3
// depth 3 is 3+9+27+81 = 120 topics, breadth 5 depth 4 is 3,905.
var benchSizes = []struct{ breadth, depth int }{{3, 3}, {5, 4}}

// reportCPU adds the CPU time per operation since start (garbage collection
// included) next to the wall time.
func reportCPU(b *testing.B, start int64) {
	if b.N > 0 {
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkParseValidateRender is the figure: read, check and write
// back a full plan. Goals: 120 topics under 1 ms, 3,905 under 30 ms.
func BenchmarkParseValidateRender(b *testing.B) {
	for _, s := range benchSizes {
		src := Render(fullPlan(s.breadth, s.depth))
		b.Run(fmt.Sprintf("topics=%d", len(fullPlan(s.breadth, s.depth).Topics)), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			cpu := cpuTime()
			for b.Loop() {
				p, err := Parse("plan.md", src)
				if err != nil {
					b.Fatal(err)
				}
				Render(p)
			}
			reportCPU(b, cpu)
		})
	}
}

// BenchmarkGoldmarkOnly is the baseline: goldmark parsing the same file to
// an AST and nothing else, the floor for any AST-based parser.
func BenchmarkGoldmarkOnly(b *testing.B) {
	for _, s := range benchSizes {
		src := Render(fullPlan(s.breadth, s.depth))
		b.Run(fmt.Sprintf("topics=%d", len(fullPlan(s.breadth, s.depth).Topics)), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			cpu := cpuTime()
			for b.Loop() {
				md.Parse(text.NewReader(src))
			}
			reportCPU(b, cpu)
		})
	}
}

// BenchmarkNext is the scheduler on a full 3,905-topic plan where only the
// last topic is left: the worst case of its single pass.
func BenchmarkNext(b *testing.B) {
	p := fullPlan(5, 4)
	for _, t := range p.Topics {
		t.Status = Complete
	}
	p.Topics[len(p.Topics)-1].Status = Pending
	for b.Loop() {
		if Next(p, nil).Kind != StepResearch {
			b.Fatal("no step")
		}
	}
}

// BenchmarkAddSubtopics adds five children to a leaf of a full 3,905-topic
// plan (breadth 5, leaves at depth 4, plan Depth raised to 5), as the loop
// does after each research phase.
func BenchmarkAddSubtopics(b *testing.B) {
	full := fullPlan(5, 4)
	full.Depth = 5
	props := []Proposal{{Name: "One"}, {Name: "Two"}, {Name: "Three"}, {Name: "Four"}, {Name: "Five"}}
	parent := full.Topics[4].Name // a leaf early in plan order: the insert moves most of the slice
	if full.Topics[4].Depth != 4 {
		b.Fatalf("topic 4 is %+v, not a leaf", full.Topics[4])
	}
	for b.Loop() {
		b.StopTimer()
		p := &Plan{Topic: full.Topic, Breadth: full.Breadth, Depth: full.Depth, Topics: slices.Clip(slices.Clone(full.Topics))}
		b.StartTimer()
		if added, _ := p.AddSubtopics(parent, props); len(added) != 5 {
			b.Fatalf("added %d", len(added))
		}
	}
}

package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/rgit-dev/rgit/phases/plan"
)

// largeReport builds a report shaped like a breadth 4 depth 3 mock
// session's after rgit linked it (~190 KB): an executive summary, 66 topic
// sections of 6 bullets citing [[n](URL)] with some quotations, a
// methodology holding a mermaid chart, and 430 numbered sources ending in
// bare URLs. It also returns the session's plan.
func largeReport() ([]byte, *plan.Plan) {
	const nSources = 430
	url := func(n int) string {
		switch n % 4 {
		case 0:
			return fmt.Sprintf("https://journals.example.org/articles/tidal-forcing-%d", n)
		case 1:
			return fmt.Sprintf("https://doi.example.org/10.5555/%d.coastal-flooding", 1000+n)
		case 2:
			return fmt.Sprintf("https://stats.example.net/reports/sea-level/%d", n)
		}
		return fmt.Sprintf("https://www.example.com/research/harmonics?id=%d", n)
	}
	cite := func(n int) string { return fmt.Sprintf("[%d](%s)", n, url(n)) }
	p := &plan.Plan{Topic: "How do tides shape coastal flooding risk?", Breadth: 4, Depth: 3}
	var findings strings.Builder
	var summary strings.Builder
	n := 0
	next := func() int { n = n%nSources + 1; return n }
	section := 0
	var walk func(parent string, level int)
	walk = func(parent string, level int) {
		for i := range 4 {
			if section >= 66 {
				return
			}
			section++
			name := fmt.Sprintf("Topic %d: tidal mechanism %d at depth %d", section, i+1, level-3)
			p.Topics = append(p.Topics, &plan.Topic{Name: name, Depth: level - 3, Parent: parent, Status: plan.Complete})
			fmt.Fprintf(&findings, "\n%s %s\n\n", strings.Repeat("#", level), name)
			for b := range 6 {
				a, c := next(), next()
				fmt.Fprintf(&findings, "- Records from %d stations show spring tides raise peak water by %d cm when a surge meets perigee [%s, %s].", 40+b, 10+a%50, cite(a), cite(c))
				switch {
				case b == 0:
					fmt.Fprintf(&findings, " One survey states: \"the nodal cycle explains up to %d%% of decadal variance\" [%s].", 5+a%20, cite(next()))
				case b%2 == 0:
					findings.WriteString(" A review calls it \"the dominant control in shallow basins\".")
				default:
					findings.WriteString(" The effect is strongest in funnel-shaped estuaries *(see the station records)*.")
				}
				findings.WriteString("\n")
				if b == 0 && level == 3 {
					fmt.Fprintf(&summary, "- %s: spring tides raise the peak water level [%s].\n", name, cite(a))
				}
			}
			if level < 5 {
				walk(name, level+1)
			}
		}
	}
	walk("", 3)
	var b strings.Builder
	b.WriteString("# Research Report: How do tides shape coastal flooding risk?\n\n## Executive Summary\n\n")
	b.WriteString("This report answers the question from the research of 66 topics. The key finding of each main topic:\n\n")
	b.WriteString(summary.String())
	b.WriteString("\n## Methodology\n\nThe question was divided into 4 main topics, refined into subtopics up to 4 per topic and down to depth 3.\n\n")
	b.WriteString(plan.Mermaid(p))
	b.WriteString("\nNo topic was abandoned.\n\n## Findings\n")
	b.WriteString(findings.String())
	b.WriteString("\n## Sources\n\n")
	for i := 1; i <= nSources; i++ {
		fmt.Fprintf(&b, "%d. Tidal harmonics and coastal flooding, volume %d (Ocean Institute, %d) - %s\n", i, i%40, 2010+i%15, url(i))
	}
	return []byte(b.String()), p
}

// The synthetic report has the size and the counts it stands for.
func TestLargeReportShape(t *testing.T) {
	md, _ := largeReport()
	d := Parse(md)
	if len(md) < 170_000 || len(md) > 210_000 {
		t.Errorf("report is %d bytes, want ~190 KB", len(md))
	}
	links := 0
	for _, c := range d.Citations {
		if c.Kind == Link {
			links++
		}
	}
	if links < 800 || len(d.Sources) != 430 {
		t.Errorf("%d linked citations and %d sources, want ~870 and 430", links, len(d.Sources))
	}
	if plain := Parse(Unlink(md)); len(plain.Citations) != links {
		t.Errorf("unlinked: %d citations, want %d", len(plain.Citations), links)
	}
}

func BenchmarkParseLargeReport(b *testing.B) { benchLinkedAndPlain(b, func(md []byte) { Parse(md) }) }

// benchLinkedAndPlain runs fn on the large report as the agents write it
// (citations linked) and as rgit unlinks it.
func benchLinkedAndPlain(b *testing.B, fn func(md []byte)) {
	linked, _ := largeReport()
	for _, tt := range []struct {
		name string
		md   []byte
	}{{"linked", linked}, {"plain", Unlink(linked)}} {
		b.Run(tt.name, func(b *testing.B) {
			b.SetBytes(int64(len(tt.md)))
			for b.Loop() {
				fn(tt.md)
			}
		})
	}
}

// BenchmarkMarkdownLargeReport is goldmark's parse alone, in rgit's dialect.
func BenchmarkMarkdownLargeReport(b *testing.B) {
	md, _ := largeReport()
	b.SetBytes(int64(len(md)))
	for b.Loop() {
		parseMarkdown(md)
	}
}

// BenchmarkDialectsLargeReport parses with goldmark's GFM, rgit's dialect
// and GFM without Linkify in turn, each iteration, so a loaded machine
// slows all three alike; it reports each one's median.
func BenchmarkDialectsLargeReport(b *testing.B) {
	md, _ := largeReport()
	dialects := []struct {
		name string
		new  func() goldmark.Markdown
	}{
		{"gfm", goldmarkGFM},
		{"rgit", newMarkdown},
		{"gfm-without-linkify", func() goldmark.Markdown {
			return goldmark.New(
				goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList, extension.Footnote),
				goldmark.WithParserOptions(parser.WithAutoHeadingID()),
			)
		}},
	}
	times := make([][]time.Duration, len(dialects))
	for b.Loop() {
		for i, d := range dialects {
			start := time.Now()
			d.new().Parser().Parse(text.NewReader(md))
			times[i] = append(times[i], time.Since(start))
		}
	}
	for i, d := range dialects {
		b.ReportMetric(float64(slices.Sorted(slices.Values(times[i]))[len(times[i])/2].Microseconds())/1000, "ms-"+d.name)
	}
}

// RenderMarkdown gets the report unlinked, as the completion phase gives it.
func BenchmarkRenderMarkdownLargeReport(b *testing.B) {
	linked, p := largeReport()
	s := &Session{Report: Unlink(linked), Plan: p}
	b.SetBytes(int64(len(s.Report)))
	for b.Loop() {
		if err := RenderMarkdown(io.Discard, s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUnlinkLargeReport(b *testing.B) { benchLinkedAndPlain(b, func(md []byte) { Unlink(md) }) }

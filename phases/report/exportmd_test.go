package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/phases/plan"
)

func TestRenderMarkdownGolden(t *testing.T) {
	tests := []struct {
		session, golden string
		fileLink        func(string) string
	}{
		// Local citations link to the repository's files at their lines.
		{"kitchen", "kitchen.md", func(p string) string { return "../../" + p }},
		// Web sources: numbered citations link to the URLs.
		{"tides-a", "tides-a.md", nil},
	}
	for _, tt := range tests {
		t.Run(tt.session, func(t *testing.T) {
			s := loadSession(t, tt.session)
			s.FileLink = tt.fileLink
			var b bytes.Buffer
			if err := RenderMarkdown(&b, s); err != nil {
				t.Fatal(err)
			}
			golden(t, "markdown/"+tt.golden, b.Bytes())
		})
	}
}

// The exported Markdown's citations are links that point where the
// citation does, and the tree is one mermaid block drawn from the plan.
func TestRenderMarkdownLinksAndTree(t *testing.T) {
	p := &plan.Plan{Topic: "Q", Breadth: 1, Topics: []*plan.Topic{{Name: "Only", Status: plan.Complete}}}
	tests := []struct {
		name, md string
		link     func(string) string
		want     []string // substrings of the output
		absent   []string
	}{
		{"numbered to URL, local to file lines, tree appended",
			"A [1] and `src/a.go:3-9`.\n\n## Sources\n\n1. Paper - https://ex.org/p\n",
			func(p string) string { return "../../" + p },
			[]string{"A [[1](https://ex.org/p)] and [`src/a.go:3-9`](../../src/a.go#L3-L9).", "## Topic Tree\n\n```mermaid\nflowchart TD\n  t0[\"Only\"]:::complete\n"},
			nil},
		{"no file link: local stays text; old chart replaced",
			"See `src/a.go:3-9`.\n\n```mermaid\nflowchart TD\n  old\n```\n",
			func(string) string { return "" },
			[]string{"See `src/a.go:3-9`.", "```mermaid\nflowchart TD\n  t0[\"Only\"]:::complete\n"},
			[]string{"old", "## Topic Tree"}},
		{"unsafe targets stay text",
			"X [1] `a.go:1-2`.\n\n## Sources\n\n1. [bad](javascript:alert(1))\n",
			func(string) string { return "javascript:alert(1)" },
			[]string{"X [1] `a.go:1-2`."},
			[]string{"[[1]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := RenderMarkdown(&b, &Session{Report: []byte(tt.md), Plan: p, FileLink: tt.link}); err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, b.String())
				}
			}
			for _, a := range tt.absent {
				if strings.Contains(b.String(), a) {
					t.Errorf("output has %q:\n%s", a, b.String())
				}
			}
			if n := strings.Count(b.String(), "```mermaid"); n != 1 {
				t.Errorf("%d mermaid blocks", n)
			}
		})
	}
}

// The chart replaces the first top-level mermaid block with content; an
// empty one, one in a quote and a later one stay as written.
func TestRenderMarkdownFirstMermaid(t *testing.T) {
	p := &plan.Plan{Topic: "Q", Breadth: 1, Topics: []*plan.Topic{{Name: "Only", Status: plan.Complete}}}
	md := "```mermaid\n```\n\n> ```mermaid\n> quoted\n> ```\n\n- ```mermaid\n  listed\n  ```\n\n```mermaid\nold\n```\n\n```mermaid\nsecond\n```\n"
	want := "```mermaid\n```\n\n> ```mermaid\n> quoted\n> ```\n\n- ```mermaid\n  listed\n  ```\n\n" + plan.Mermaid(p) + "\n```mermaid\nsecond\n```\n"
	var b bytes.Buffer
	if err := RenderMarkdown(&b, &Session{Report: []byte(md), Plan: p}); err != nil {
		t.Fatal(err)
	}
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

package mock

import (
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The checks below are the loop's gates, restated independently of the
// mock's own code, so a contract breach in its output fails a test.

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

type proposal struct {
	name     string
	criteria []string
}

// subtopicsOf parses "## Subtopics" the way the loop does.
func subtopicsOf(text string) []proposal {
	var out []proposal
	in := false
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\n")
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## Subtopics"
		case in && strings.HasPrefix(line, "- "):
			name, _, _ := strings.Cut(line[2:], ": ")
			out = append(out, proposal{name: name})
		case in && strings.HasPrefix(line, "  - ") && len(out) > 0:
			out[len(out)-1].criteria = append(out[len(out)-1].criteria, line[4:])
		}
	}
	return out
}

var sourceRef = regexp.MustCompile(`Source (\d+)`)

// checkProgress checks a progress file against the research contract.
func checkProgress(t *testing.T, n *node, text string, gaps []string, breadth, depth int) {
	t.Helper()
	for _, h := range []string{"# Progress: " + n.name, "## Findings", "## Sources", "## Knowledge Gaps"} {
		if !hasHeading(text, h) {
			t.Errorf("%s: no %q", n.name, h)
		}
	}
	if got, want := hasHeading(text, "## Subtopics"), n.depth < depth; got != want {
		t.Errorf("%s at depth %d of %d: Subtopics section present = %v", n.name, n.depth, depth, got)
	}
	sources := sectionItems(text, "## Sources")
	findings := sectionItems(text, "## Findings")
	if len(findings) < 3 || len(sources) == 0 {
		t.Errorf("%s: %d findings, %d sources", n.name, len(findings), len(sources))
	}
	for _, f := range findings {
		m := sourceRef.FindAllStringSubmatch(f, -1)
		if len(m) == 0 {
			t.Errorf("%s: finding without a source: %s", n.name, f)
		}
		for _, ref := range m {
			if k := atoi(ref[1]); k < 1 || k > len(sources) || !strings.HasPrefix(sources[k-1], "Source "+ref[1]+": ") {
				t.Errorf("%s: finding cites missing source %s", n.name, ref[1])
			}
		}
	}
	for _, src := range sources {
		if !strings.Contains(src, "https://") || !strings.Contains(src, "example.") {
			t.Errorf("%s: source without an example URL: %s", n.name, src)
		}
	}
	for _, c := range n.criteria {
		if !strings.Contains(text, c) {
			t.Errorf("%s: criterion %q not addressed", n.name, c)
		}
	}
	for _, g := range gaps {
		if !strings.Contains(text, g) {
			t.Errorf("%s: review gap %q not addressed", n.name, g)
		}
	}
	subs := subtopicsOf(text)
	if len(subs) > breadth {
		t.Errorf("%s: %d subtopics, breadth %d", n.name, len(subs), breadth)
	}
	for _, p := range subs {
		if len(p.criteria) < 2 || strings.ContainsAny(p.name, "():[]/") || len(p.name) > 60 {
			t.Errorf("%s: bad subtopic %+v", n.name, p)
		}
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// checkVerdict checks the verdict JSON is the same in the final message
// and the file, and well formed.
func checkVerdict(t *testing.T, text, file string) verdict {
	t.Helper()
	if strings.TrimSpace(file) != text {
		t.Errorf("verdict file %q differs from final message %q", file, text)
	}
	var v verdict
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("verdict %q: %v", text, err)
	}
	switch {
	case v.Verdict == "accept" && len(v.Gaps) != 0, v.Verdict == "reject" && len(v.Gaps) == 0,
		v.Verdict != "accept" && v.Verdict != "reject", v.Summary == "", v.Gaps == nil:
		t.Errorf("bad verdict %+v", v)
	}
	return v
}

// checkReport checks the synthesis contract: sections, every topic under
// a heading at its depth, and citations that resolve.
func checkReport(t *testing.T, text string, topics []*node) {
	t.Helper()
	for _, h := range []string{"## Executive Summary", "## Methodology", "## Findings", "## Sources"} {
		if !hasHeading(text, h) {
			t.Errorf("report: no %q", h)
		}
	}
	for _, n := range topics {
		if !hasHeading(text, strings.Repeat("#", min(3+n.depth, 6))+" "+n.name) {
			t.Errorf("report: no heading for %q at depth %d", n.name, n.depth)
		}
	}
	_, sources, _ := strings.Cut(text, "\n## Sources\n\n")
	count := strings.Count(sources, "\n")
	cited := map[int]bool{}
	for _, m := range regexp.MustCompile(`\[(\d+)\]`).FindAllStringSubmatch(text, -1) {
		k := atoi(m[1])
		cited[k] = true
		if k < 1 || k > count {
			t.Errorf("report cites [%d] of %d sources", k, count)
		}
	}
	if len(cited) != count {
		t.Errorf("report cites %d of its %d sources", len(cited), count)
	}
}

package phases

import (
	"reflect"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/phases/plan"
	"github.com/rgit-dev/rgit/phases/report"
)

func TestParseSubtopics(t *testing.T) {
	src := "# Progress: X\n\n## Findings\n- a [1]\n\n## Sources\n- [1] https://example.org\n\n## Subtopics\n" +
		"- Ocean Basins: how basin shape shapes tides\n  - Explains resonance\n  - Names two basins\n" +
		"- **Moon Distance**: perigee effects\n- ../../etc/passwd: sneaky\n- : empty name\n"
	got := parseSubtopics([]byte(src))
	want := []plan.Proposal{
		{Name: "Ocean Basins", Description: "how basin shape shapes tides", Criteria: []string{"Explains resonance", "Names two basins"}},
		{Name: "Moon Distance", Description: "perigee effects"},
		{Name: "../../etc/passwd", Description: "sneaky"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseSubtopics =\n%#v\nwant\n%#v", got, want)
	}
	// A hostile name still slugs to something inside progress/.
	if s := plan.Slug(got[2].Name); strings.ContainsAny(s, "./") {
		t.Errorf("slug of hostile name %q = %q", got[2].Name, s)
	}
}

// reportGate is the synthesis gate as a final phase runs it, on the
// report's one parse.
func reportGate(src []byte) error { return checkReport(report.Parse(src).Sections, reportSections) }

func TestGates(t *testing.T) {
	tests := []struct {
		name   string
		check  func([]byte) error
		src    string
		errHas string
	}{
		{"research ok", checkResearch, "## Findings\n- x\n\n## Sources\n- y\n", ""},
		{"research no findings", checkResearch, "## Sources\n- y\n", "Findings"},
		{"research empty findings", checkResearch, "## Findings\n\n## Sources\n- y\n", "empty"},
		{"research no sources", checkResearch, "## Findings\n- x\n", "Sources"},
		{"garbage", checkResearch, "\x00\x01 lorem", "Findings"},
		{"report ok", reportGate, "# R\n\n## Executive Summary\nx\n\n## Findings\ny\n\n## Sources\n1. z\n", ""},
		{"report no summary", reportGate, "## Findings\ny\n\n## Sources\n1. z\n", "Executive Summary"},
		{"report aliases and setext", reportGate, "Summary\n---\nx\n\n## Key Findings\ny\n\n## References\n1. z\n", ""},
		{"report sources only in code", reportGate, "## Summary\nx\n\n## Findings\ny\n\n```\n## Sources\n```\n", "Sources"},
		{"titles spaced twice", checkResearch, "## Key  Findings\n- x\n\n## Sources\n- y\n", ""},
		{"report titles spaced twice", reportGate, "## Executive  Summary\nx\n\n## Findings\ny\n\n## Sources\n1. z\n", ""},
		{"report level-3 findings", reportGate, "## Summary\nx\n\n### Findings\ny\n\n## Sources\n1. z\n", "Findings"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.check([]byte(tc.src))
			if tc.errHas == "" && err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if tc.errHas != "" && (err == nil || !strings.Contains(err.Error(), tc.errHas)) {
				t.Fatalf("error %v, want one mentioning %q", err, tc.errHas)
			}
		})
	}
}

// Sections are found in document order: the first matching heading wins,
// every time, and a prefix listed first wins over a later one.
func TestFindSectionOrder(t *testing.T) {
	src := []byte("# P\n\n## Key Findings\nkey\n\n## Findings (draft)\ndraft\n\n## Findings\nfinal\n\n## Sources\n- s\n")
	for range 50 {
		body, ok := findSection(sections(src), "findings", "key findings")
		if !ok || strings.TrimSpace(string(body)) != "draft" {
			t.Fatalf("findSection = %q, want the first \"findings\" section", body)
		}
	}
	if got := firstFinding(src); got != "draft" {
		t.Errorf("firstFinding = %q", got)
	}
	var titles []string
	for _, s := range sections(src) {
		titles = append(titles, s.title)
	}
	if strings.Join(titles, "|") != "key findings|findings (draft)|findings|sources" {
		t.Errorf("sections out of order: %q", titles)
	}
}

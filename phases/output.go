package phases

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/phases/plan"
)

// An agent's output is untrusted input: these functions read it defensively
// and the gates reject what breaks the phase contract.

// sections returns the level-2 sections of a markdown document by lowercased
// title, each with its body source.
func sections(src []byte) map[string][]byte {
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	type head struct {
		title string
		start int // byte offset where the body starts
		pos   int // byte offset where the heading starts
	}
	var heads []head
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		if !ok || h.Level != 2 || h.Lines().Len() == 0 {
			continue
		}
		seg := h.Lines().At(h.Lines().Len() - 1)
		end := seg.Stop
		if nl := bytes.IndexByte(src[end:], '\n'); nl >= 0 {
			end += nl + 1
		} else {
			end = len(src)
		}
		start := bytes.LastIndexByte(src[:h.Lines().At(0).Start], '\n') + 1
		heads = append(heads, head{title: strings.ToLower(inlineText(h, src)), start: end, pos: start})
	}
	out := map[string][]byte{}
	for i, h := range heads {
		stop := len(src)
		if i+1 < len(heads) {
			stop = heads[i+1].pos
		}
		if _, dup := out[h.title]; !dup {
			out[h.title] = src[h.start:stop]
		}
	}
	return out
}

// inlineText joins the text of n's inline children.
func inlineText(n ast.Node, src []byte) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Value(src))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		default:
			b.WriteString(inlineText(c, src))
		}
	}
	return strings.TrimSpace(b.String())
}

// findSection returns the body of the first section whose title starts with
// one of the prefixes.
func findSection(secs map[string][]byte, prefixes ...string) ([]byte, bool) {
	for _, p := range prefixes {
		for title, body := range secs {
			if strings.HasPrefix(title, p) {
				return body, true
			}
		}
	}
	return nil, false
}

// checkResearch is the research gate: the progress file has findings with
// content and a sources section.
func checkResearch(src []byte) error {
	secs := sections(src)
	findings, ok := findSection(secs, "findings", "key findings")
	if !ok {
		return fmt.Errorf("progress file has no \"## Findings\" section")
	}
	if len(bytes.TrimSpace(findings)) == 0 {
		return fmt.Errorf("\"## Findings\" section is empty")
	}
	if _, ok := findSection(secs, "sources", "references"); !ok {
		return fmt.Errorf("progress file has no \"## Sources\" section")
	}
	return nil
}

// checkReport is the synthesis gate.
func checkReport(src []byte) error {
	secs := sections(src)
	for _, want := range [][]string{{"executive summary", "summary"}, {"findings"}, {"sources", "references"}} {
		if _, ok := findSection(secs, want...); !ok {
			return fmt.Errorf("report has no \"## %s\" section", titleCase(want[0]))
		}
	}
	return nil
}

func titleCase(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

// parseSubtopics reads the "## Subtopics" section: "- Name: description"
// items with nested criteria.
func parseSubtopics(src []byte) []plan.Proposal {
	body, ok := findSection(sections(src), "subtopics", "notes for subtopics", "suggested subtopics")
	if !ok {
		return nil
	}
	doc := goldmark.New().Parser().Parse(text.NewReader(body))
	var out []plan.Proposal
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		list, ok := n.(*ast.List)
		if !ok {
			continue
		}
		for it := list.FirstChild(); it != nil; it = it.NextSibling() {
			var p plan.Proposal
			for c := it.FirstChild(); c != nil; c = c.NextSibling() {
				switch c := c.(type) {
				case *ast.TextBlock, *ast.Paragraph:
					if p.Name == "" {
						p.Name, p.Description = splitNameDesc(inlineText(c, body))
					}
				case *ast.List:
					for crit := c.FirstChild(); crit != nil; crit = crit.NextSibling() {
						if s := cleanLine(inlineText(crit.FirstChild(), body)); s != "" {
							p.Criteria = append(p.Criteria, s)
						}
					}
				}
			}
			if p.Name != "" {
				out = append(out, p)
			}
		}
		break
	}
	return out
}

// splitNameDesc splits "Name: description" and sanitizes both: names become
// headings and file slugs, so they are kept to one short printable line.
func splitNameDesc(s string) (string, string) {
	name, desc, _ := strings.Cut(s, ":")
	name = strings.Trim(cleanLine(name), "*_`[] ")
	if len(name) > 100 {
		name = strings.TrimSpace(name[:100])
	}
	if name == "" {
		return "", ""
	}
	return name, cleanLine(desc)
}

// cleanLine drops control characters and collapses whitespace.
func cleanLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// Verdict is a review's decision, the structured loop decision of seed 003.
type Verdict struct {
	Verdict string   `json:"verdict"`
	Summary string   `json:"summary"`
	Gaps    []string `json:"gaps"`
}

// Accepted says whether the review accepted.
func (v Verdict) Accepted() bool { return v.Verdict == "accept" }

// parseVerdict finds the last JSON object with a valid verdict in text.
func parseVerdict(text string) (Verdict, error) {
	for end := strings.LastIndexByte(text, '}'); end >= 0; end = strings.LastIndexByte(text[:end], '}') {
		for start := strings.LastIndexByte(text[:end], '{'); start >= 0; start = strings.LastIndexByte(text[:start], '{') {
			var v Verdict
			if json.Unmarshal([]byte(text[start:end+1]), &v) != nil {
				continue
			}
			v.Verdict = strings.ToLower(strings.TrimSpace(v.Verdict))
			switch v.Verdict {
			case "accept", "accepted", "approve", "approved":
				v.Verdict = "accept"
			case "reject", "rejected", "revise":
				v.Verdict = "reject"
			default:
				continue
			}
			v.Summary = cleanLine(v.Summary)
			var gaps []string
			for _, g := range v.Gaps {
				if g = cleanLine(g); g != "" {
					gaps = append(gaps, g)
				}
			}
			v.Gaps = gaps
			return v, nil
		}
	}
	return Verdict{}, fmt.Errorf(`no verdict: expected a JSON object {"verdict": "accept"|"reject", "summary": ..., "gaps": [...]}`)
}

// verdictGate is the review phases' gate: a verdict in the final message,
// or else in the output file, stored into v.
func verdictGate(out string, v *Verdict) func(agents.Result) error {
	return func(res agents.Result) error {
		var err error
		if *v, err = parseVerdict(tail(res.Text, 64<<10)); err == nil {
			return nil
		}
		data, rerr := os.ReadFile(out)
		if rerr != nil {
			return err
		}
		*v, err = parseVerdict(tail(string(data), 64<<10))
		return err
	}
}

package phases

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/rgit-dev/rgit/phases/plan"
)

// An agent's output is untrusted input: these functions read it defensively
// and the gates reject what breaks the phase contract.

// section is one level-2 section of a markdown document.
type section struct {
	title string // lowercased
	body  []byte // the source between its heading and the next
}

// sections returns the level-2 sections of a markdown document in document
// order, each with its lowercased title and body source.
func sections(src []byte) []section {
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
		heads = append(heads, head{title: strings.ToLower(collapseSpace(inlineText(h, src))), start: end, pos: start})
	}
	out := make([]section, 0, len(heads))
	for i, h := range heads {
		stop := len(src)
		if i+1 < len(heads) {
			stop = heads[i+1].pos
		}
		out = append(out, section{title: h.title, body: src[h.start:stop]})
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

// findSection returns the body of the first section, in document order,
// whose title starts with the first prefix; failing that the second, and
// so on.
func findSection(secs []section, prefixes ...string) ([]byte, bool) {
	for _, p := range prefixes {
		for _, sec := range secs {
			if strings.HasPrefix(sec.title, p) {
				return sec.body, true
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

// reportSections are the sections the synthesis gate requires, as title
// prefixes: any one of a group will do.
var reportSections = [][]string{{"executive summary", "summary"}, {"findings", "key findings"}, {"sources", "references"}}

// checkReport is the synthesis gate over the report's level-2 section
// titles (report.Document's Sections: the parse the citation gate
// shares): each group of want needs a title starting with one of its
// prefixes.
func checkReport(titles []string, want [][]string) error {
	for _, group := range want {
		found := false
		for _, t := range titles {
			for _, p := range group {
				found = found || strings.HasPrefix(t, p)
			}
		}
		if !found {
			return fmt.Errorf("report has no \"## %s\" section", titleCase(group[0]))
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

// firstFinding is a one-line summary of a progress file for its
// descendants' prompts.
func firstFinding(data []byte) string {
	body, ok := findSection(sections(data), "findings", "key findings")
	if !ok {
		return ""
	}
	for _, line := range strings.Split(string(body), "\n") {
		line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "-*+"))
		if line != "" {
			s := cleanLine(line)
			if len(s) > 160 {
				s = s[:157] + "..."
			}
			return s
		}
	}
	return ""
}

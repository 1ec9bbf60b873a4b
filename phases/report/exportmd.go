package report

import (
	"bytes"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/rgit-dev/rgit/phases/plan"
)

// edit replaces src[start:stop] with text.
type edit struct {
	start, stop int
	text        string
}

// applyEdits applies non-overlapping edits to src.
func applyEdits(src []byte, edits []edit) []byte {
	sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var b bytes.Buffer
	at := 0
	for _, e := range edits {
		if e.start < at {
			continue // overlapping: keep the first
		}
		b.Write(src[at:e.start])
		b.WriteString(e.text)
		at = e.stop
	}
	b.Write(src[at:])
	return b.Bytes()
}

// RenderMarkdown writes the report for git hosts (GitHub, GitLab, Gitea
// render it in place): numbered citations link to their source's URL (or
// file), local citations to their file at the cited lines (GitHub's
// "#L3-L9" anchors) when Session.FileLink knows the file, and the topic
// tree is a fenced ```mermaid block drawn from the current plan, replacing
// the one synthesis wrote or appended under "## Topic Tree". FileLink's
// links must be relative to where the Markdown will be read.
func RenderMarkdown(w io.Writer, s *Session) error {
	md := s.Report
	doc := Parse(md)
	var edits []edit
	for _, c := range doc.Citations {
		if href := markdownHref(c, s.FileLink); href != "" {
			text := string(md[c.span[0]:c.span[1]])
			edits = append(edits, edit{c.span[0], c.span[1], "[" + text + "](" + href + ")"})
		}
	}
	var out []byte
	switch e, ok := mermaidBody(doc, s.Plan); {
	case s.Plan == nil:
		out = applyEdits(md, edits)
	case ok:
		out = applyEdits(md, append(edits, e))
	default:
		out = bytes.TrimRight(applyEdits(md, edits), "\n")
		out = append(out, "\n\n## Topic Tree\n\n"+plan.Mermaid(s.Plan)...)
	}
	_, err := w.Write(out)
	return err
}

// markdownHref is where a citation links on a git host, or "" to leave it
// as written: URLs and links already are links.
func markdownHref(c Citation, fileLink func(string) string) string {
	file := func(path string) string {
		if fileLink == nil {
			return ""
		}
		href, ok := safeHref(fileLink(path))
		if !ok || isExternal(href) || strings.ContainsAny(href, " ()<>") {
			return ""
		}
		return href
	}
	switch c.Kind {
	case Numbered:
		switch {
		case c.Source == nil:
		case c.Source.URL != "":
			if href, ok := safeHref(c.Source.URL); ok && !strings.ContainsAny(href, " ()<>") {
				return href
			}
		case c.Source.Path != "":
			return file(c.Source.Path)
		}
	case Local:
		if href := file(c.Path); href != "" {
			return href + "#L" + strconv.Itoa(c.From) + "-L" + strconv.Itoa(c.To)
		}
	}
	return ""
}

// mermaidBody replaces the content of the report's first ```mermaid block
// (found by Parse) with the plan's chart; ok is false without a plan or
// such a block.
func mermaidBody(doc *Document, p *plan.Plan) (edit, bool) {
	if p == nil || doc.mermaid == nil {
		return edit{}, false
	}
	body := strings.TrimPrefix(plan.Mermaid(p), "```mermaid\n")
	body = strings.TrimSuffix(body, "```\n")
	return edit{doc.mermaid[0], doc.mermaid[1], body}, true
}

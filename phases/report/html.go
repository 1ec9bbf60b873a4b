package report

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io"
)

//go:embed page/page.html.tmpl page/page.css
var pageFiles embed.FS

// pageTemplate is parsed once; html/template escapes every value by its
// context, so the session's own strings (names, topics, agents) are as
// inert as the report.
var pageTemplate = template.Must(template.ParseFS(pageFiles, "page/page.html.tmpl"))

// pageView is what the page template shows.
type pageView struct {
	Title, Name, Branch        string
	MetaID, TreeID, PassagesID string
	CSS                        template.CSS
	Facts                      []string
	Meta                       []metaRow
	Usage, PhaseTotals         []usageRow
	Phases                     []phaseRow
	Tree                       []treeNode
	Body                       template.HTML
	Passages                   []passageView
}

type passageView struct {
	ID, Path, Href string
	From, To       int
}

// RenderHTML writes the session as one self-contained HTML page: the
// session's metadata and usage, the topic tree as nested lists with
// statuses, the report rendered by goldmark (GFM tables, footnotes,
// heading anchors), and the local passages it cites. Each numbered
// citation links to its entry in the sources list, each local citation to
// its passage (and that to the file, when Session.FileLink knows it), each
// URL to itself.
//
// The report is untrusted: raw HTML is omitted, links other than http,
// https, mailto, fragments and relative paths lose their destination,
// images become links, and the page's Content-Security-Policy forbids
// every fetch and script, so the page loads nothing even if something
// slipped through.
func RenderHTML(w io.Writer, s *Session) error {
	body, passages, anchors, err := renderBody(s.Report)
	if err != nil {
		return err
	}
	css, err := pageFiles.ReadFile("page/page.css")
	if err != nil {
		return fmt.Errorf("read page style: %w", err)
	}
	v := pageView{
		Title: pageTitle(s), Name: s.Name, Branch: s.Branch,
		MetaID: metaID, TreeID: treeID, PassagesID: passagesID,
		CSS:   template.CSS(css), // rgit's own file
		Facts: facts(s), Meta: metaRows(s), Usage: usageRows(s), PhaseTotals: phaseTotalRows(s), Phases: phaseRows(s),
		Tree: topicTree(s.Plan, s.Exhausted, anchors),
		Body: template.HTML(body), // goldmark's safe mode over an inert AST
	}
	for i, p := range passages {
		pv := passageView{ID: passageID(i + 1), Path: p.Path, From: p.From, To: p.To}
		if s.FileLink != nil {
			if href, ok := safeHref(s.FileLink(p.Path)); ok && !isExternal(href) {
				pv.Href = href
			}
		}
		v.Passages = append(v.Passages, pv)
	}
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, v); err != nil {
		return fmt.Errorf("render page: %w", err)
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// renderBody renders the report's Markdown to inert HTML with its
// citations linked, and returns the passages cited and the headings'
// anchors.
func renderBody(md []byte) (body []byte, passages []passage, anchors map[string]string, err error) {
	doc := Parse(md)
	root := parseMarkdown(md)
	makeInert(root, md)
	passages = linkCitations(root, md, doc)
	anchors = headingAnchors(root, md)
	var buf bytes.Buffer
	if err := newMarkdown().Renderer().Render(&buf, md, root); err != nil {
		return nil, nil, nil, fmt.Errorf("render report: %w", err)
	}
	return buf.Bytes(), passages, anchors, nil
}

func pageTitle(s *Session) string {
	switch {
	case s.Question != "":
		return s.Question + " · rgit report"
	case s.Name != "":
		return s.Name + " · rgit report"
	}
	return "rgit report"
}

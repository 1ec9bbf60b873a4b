package report

import (
	"html"
	"net/url"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// safeHref returns a link destination a page may carry, or ok false: only
// http, https and mailto URLs, fragments, and relative paths. Everything
// else (javascript:, data:, vbscript:, file:, and schemes browsers add
// later) is dropped rather than listed as bad. Browsers ignore tabs and
// newlines inside a scheme ("java\tscript:"), so those are removed before
// the scheme is read, and a URL that does not parse is dropped.
func safeHref(dest string) (string, bool) {
	d := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, strings.TrimSpace(dest))
	if d == "" {
		return "", false
	}
	u, err := url.Parse(d)
	if err != nil {
		return "", false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		if u.Host == "" {
			return "", false
		}
	case "mailto":
	case "":
		// A relative path or a fragment; "//host/x" would be another site
		// by the page's scheme, and a "\" is read as "/" by browsers.
		if strings.HasPrefix(d, "//") || strings.Contains(d, `\`) || u.Host != "" {
			return "", false
		}
	default:
		return "", false
	}
	return d, true
}

// safeDest checks a Markdown link destination as the browser will see it:
// with entities resolved ("java&#x09;script:") and as goldmark escapes it
// into the page. It returns the resolved destination for the AST.
func safeDest(dest []byte) (string, bool) {
	resolved := html.UnescapeString(string(dest))
	href, ok := safeHref(resolved)
	if !ok {
		return "", false
	}
	if _, ok := safeHref(string(util.URLEscape([]byte(href), true))); !ok {
		return "", false
	}
	return href, true
}

// isExternal says whether a safe href leaves the page for the network.
func isExternal(href string) bool {
	l := strings.ToLower(href)
	return strings.HasPrefix(l, "http:") || strings.HasPrefix(l, "https:")
}

// makeInert rewrites the parts of an agent's report that a browser would
// act on: an image becomes a link to it (a page fetches nothing), a link
// or autolink with an unsafe destination becomes its plain text, and a
// mermaid block (which would need a script) becomes a pointer to the
// topic tree the page draws itself. Raw HTML is left to goldmark's safe
// mode, which omits it.
func makeInert(root ast.Node, src []byte) {
	var todo []ast.Node
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch n.(type) {
			case *ast.Image, *ast.Link, *ast.AutoLink, *ast.FencedCodeBlock:
				todo = append(todo, n)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, n := range todo {
		parent := n.Parent()
		if parent == nil {
			continue
		}
		switch t := n.(type) {
		case *ast.Image:
			parent.ReplaceChild(parent, t, imageLink(t, src))
		case *ast.Link:
			if href, ok := safeDest(t.Destination); ok {
				t.Destination = []byte(href)
				if isExternal(href) {
					t.SetAttributeString("rel", []byte("noreferrer"))
				}
				continue
			}
			t.Title = nil
			unwrap(t)
		case *ast.AutoLink:
			if _, ok := safeDest(t.URL(src)); !ok && t.AutoLinkType == ast.AutoLinkURL {
				parent.ReplaceChild(parent, t, ast.NewString(t.Label(src)))
			}
		case *ast.FencedCodeBlock:
			if string(t.Language(src)) == "mermaid" {
				parent.ReplaceChild(parent, t, treePointer())
			}
		}
	}
}

// imageLink is the link an image becomes: "[image: alt]" to its URL, or
// plain text when the URL is unsafe.
func imageLink(img *ast.Image, src []byte) ast.Node {
	label := ast.NewString([]byte("[image: " + plainText(img, src) + "]"))
	href, ok := safeDest(img.Destination)
	if !ok {
		return label
	}
	l := ast.NewLink()
	l.Destination = []byte(href)
	l.SetAttributeString("class", []byte("image-link"))
	if isExternal(href) {
		l.SetAttributeString("rel", []byte("noreferrer"))
	}
	l.AppendChild(l, label)
	return l
}

// unwrap replaces a node by its children.
func unwrap(n ast.Node) {
	parent := n.Parent()
	for c := n.FirstChild(); c != nil; {
		next := c.NextSibling()
		parent.InsertBefore(parent, n, c)
		c = next
	}
	parent.RemoveChild(parent, n)
}

// treePointer stands where the report had its Mermaid chart.
func treePointer() ast.Node {
	p := ast.NewParagraph()
	l := ast.NewLink()
	l.Destination = []byte("#" + treeID)
	l.AppendChild(l, ast.NewString([]byte("The topic tree")))
	p.AppendChild(p, l)
	p.AppendChild(p, ast.NewString([]byte(" is drawn at the top of this page.")))
	return p
}

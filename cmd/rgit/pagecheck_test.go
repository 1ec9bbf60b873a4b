package main

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/net/html"

	"github.com/rgit-dev/rgit/phases/report"
)

// Testscript commands that check rgit export's and rgit show's files the
// way a tool would read them.

// cmdCheckExportJSON is `check-export-json FILE`: FILE is valid against
// the documented schema that `rgit export --schema` prints.
func cmdCheckExportJSON(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: check-export-json FILE")
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(report.Schema()))
	ts.Check(err)
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	ts.Check(c.AddResource("export.json", doc))
	sch, err := c.Compile("export.json")
	ts.Check(err)
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err == nil {
		err = sch.Validate(v)
	}
	switch {
	case neg && err == nil:
		ts.Fatalf("%s is valid", args[0])
	case !neg && err != nil:
		ts.Fatalf("%s: %v", args[0], err)
	}
}

// cmdCheckPage is `check-page FILE`: the HTML page parses; every citation
// link (class "cite") and every relative link resolves to an element id of
// the page or to a file next to it; nothing is loaded from anywhere (no
// script, image, frame, media, object, stylesheet link or url() in
// styles) and a Content-Security-Policy forbids it. It prints the
// citation links it found by kind.
func cmdCheckPage(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: check-page FILE")
	}
	var problems []string
	fail := func(format string, a ...any) { problems = append(problems, fmt.Sprintf(format, a...)) }
	file := ts.MkAbs(args[0])
	data, err := os.ReadFile(file)
	ts.Check(err)
	root, err := html.Parse(bytes.NewReader(data))
	ts.Check(err)
	ids := map[string]bool{}
	var links []*html.Node
	csp := false
	walk(root, func(n *html.Node) {
		if id := attrOf(n, "id"); id != "" {
			ids[id] = true
		}
		switch n.Data {
		case "a":
			links = append(links, n)
		case "meta":
			csp = csp || strings.EqualFold(attrOf(n, "http-equiv"), "Content-Security-Policy") && strings.Contains(attrOf(n, "content"), "default-src 'none'")
		case "script", "img", "iframe", "frame", "object", "embed", "audio", "video", "source", "track", "link", "picture", "base":
			fail("%s: <%s> would load or change what loads", args[0], n.Data)
		case "style":
			if n.FirstChild != nil && strings.Contains(n.FirstChild.Data, "url(") {
				fail("%s: a style loads a url()", args[0])
			}
		}
		if strings.Contains(attrOf(n, "style"), "url(") || attrOf(n, "src") != "" || attrOf(n, "srcset") != "" {
			fail("%s: <%s> loads a resource", args[0], n.Data)
		}
	})
	if !csp {
		fail("%s: no Content-Security-Policy forbidding fetches", args[0])
	}
	var anchors, files, web int
	for _, a := range links {
		href := attrOf(a, "href")
		u, err := url.Parse(href)
		if err != nil {
			fail("%s: bad link %q", args[0], href)
			continue
		}
		cite := hasClassOf(a, "cite")
		switch {
		case u.Scheme == "http" || u.Scheme == "https" || u.Scheme == "mailto":
			if cite {
				web++
			}
		case u.Scheme != "" || u.Host != "":
			fail("%s: link %q has scheme %q", args[0], href, u.Scheme)
		case u.Path == "":
			if !ids[u.Fragment] {
				fail("%s: link %q names no element of the page", args[0], href)
			}
			if cite {
				anchors++
			}
		default:
			target := filepath.Join(filepath.Dir(file), filepath.FromSlash(u.Path))
			if fi, err := os.Stat(target); err != nil || !fi.Mode().IsRegular() {
				fail("%s: link %q names no file (%s)", args[0], href, target)
			}
			files++
		}
	}
	switch {
	case neg && len(problems) == 0:
		ts.Fatalf("%s passed every check", args[0])
	case neg:
		fmt.Fprintln(ts.Stdout(), strings.Join(problems, "\n"))
		return
	case len(problems) > 0:
		ts.Fatalf("%s", strings.Join(problems, "\n"))
	}
	fmt.Fprintf(ts.Stdout(), "citation links to the page: %d\nlinks to files: %d\ncitation links to the web: %d\n", anchors, files, web)
}

func walk(n *html.Node, visit func(*html.Node)) {
	if n.Type == html.ElementNode {
		visit(n)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, visit)
	}
}

func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasClassOf(n *html.Node, class string) bool {
	return strings.Contains(" "+attrOf(n, "class")+" ", " "+class+" ")
}

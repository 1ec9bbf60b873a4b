package report

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// goldmark v1.8.7's linkify patterns (extension/linkify.go), which the
// byte matchers replace.
var (
	goldmarkURLRE = regexp.MustCompile(`^(?:http|https|ftp)://[-a-zA-Z0-9@:%._\+~#=]{1,256}\.[a-z]+(?::\d+)?(?:[/#?][-a-zA-Z0-9@:%_+.~#$!?&/=\(\);,'">\^{}\[\]` + "`" + `]*)?`)
	goldmarkWWWRE = regexp.MustCompile(`^www\.[-a-zA-Z0-9@:%._\+~#=]{1,256}\.[a-z]+(?:[/#?][-a-zA-Z0-9@:%_\+.~#!?&/=\(\);,'">\^{}\[\]` + "`" + `]*)?`)
)

// goldmarkGFM is the dialect before rgit's linkify: goldmark's own GFM.
func goldmarkGFM() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.GFM, extension.Footnote),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	)
}

var long = strings.Repeat("a", 300)

// linkifyCases are inputs where bare-URL autolinking is easy to get wrong.
var linkifyCases = []string{
	"See https://example.com now.",
	"See https://example.com/path?q=1&r=2#frag.",
	"http://example.com:8080/x and http://example.com:/x and http://example.com:80a",
	"https://a.b.c.d.example.co.uk/path/to/page.html",
	"Trailing https://example.com/a). (https://example.com/b) (https://example.com/c_(d)) e",
	"https://example.com/a;b https://example.com/&amp; https://example.com/x&amp;; https://example.com/&a1b2;",
	"https://example.com/?!.,:*_~ end",
	"*https://example.com* _https://example.com_ ~https://example.com~ ~~https://example.com~~",
	"(www.example.com) www.example.com/a?b=c. www.example www.EXAMPLE.COM www.a.b",
	"www.x@example.com www.X@A.COM foo@bar.com foo@bar.com. foo@bar.com- foo@bar.com_ a.b-c_d+e@f.g.h",
	"mail: @bar.com x@y @ foo@bar foo@.com foo@bar.c0m",
	"<https://example.com/auto> <foo@bar.com> <ftp://x.y>",
	"[https://example.com](https://example.com) [see www.example.com](https://x.org) ![http://i.org](http://i.org/a.png)",
	"`https://example.com/in/code` and ``www.example.com``",
	"ftp://files.example.org/pub ftp:/x ftp://x HTTP://EXAMPLE.COM Https://example.com",
	"http://example.com http:// https:// http://.com http://a..com http://a.COM http://a.c",
	"héllo https://exämple.com/ü https://example.com/ü?x=ö — https://例え.jp https://example.com/\xff",
	"https://" + long + ".com https://" + strings.Repeat("a.", 130) + "com https://" + strings.Repeat("a", 255) + ".com https://" + strings.Repeat("a", 256) + ".com",
	"www." + strings.Repeat("b", 256) + ".org www." + strings.Repeat("b", 257) + ".org " + strings.Repeat("x", 70) + "@example.com",
	"https://a.com/$x www.a.com/$x https://a.com/'q'\"r\" https://a.com/<b> https://a.com/{}[]^`x`",
	"line one\nhttps://head.example.com\n  www.indented.example\n\thttps://tab.example.com",
	"1. https://list.example.org\n2. www.list.example\n\n> https://quote.example.com\n",
	"| a | b |\n|---|---|\n| https://cell.example.com | www.cell.example |\n",
	"- [ ] https://task.example.com\n- [x] done www.done.example\n",
	"Text[^1] https://fn.example.com\n\n[^1]: Note https://note.example.org.\n",
	"# Heading https://h.example.com\n\nSetext www.s.example\n---\n",
	"```\nhttps://fenced.example.com\n```\n    https://indented.example.com\n",
	"<a href=\"https://raw.example.com\">https://in.html.example</a> <!-- https://c.example -->",
	"\\https://escaped.example.com \\*https://e.example.com",
	"a*https://x.example.com*b a_https://y.example.com_b a(https://z.example.com)b",
	"https://example.com/path))) https://example.com/((path) https://example.com/a(b)c)",
	"https://1.2.3.4/ http://localhost:3000 http://a.b:99999999999/x",
	"www.example.com:8080/x https://example.com#frag www.example.com#f www.example.com?q",
	"[link www.inside.example text](/x) [ref]: https://ref.example.com\n\n[ref]",
	"https://example.com/a.b.c. https://example.com/x?y=z&w=v; https://example.com/q, then",
	"**https://bold.example.com** __www.bold.example__",
	"foo@bar.example.com. x foo@bar.example.com.. mailto:foo@bar.com",
	"https://a.b/c\u00a0https://d.e/f",
	"",
	"http",
	"https://",
	"www.",
	"(",
	"~",
}

func TestLinkifyMatchesGoldmark(t *testing.T) {
	for _, in := range linkifyCases {
		checkLinkify(t, in)
	}
	// Every byte after a trigger and at a line head, before what would
	// make a URL or an email.
	for c := range 256 {
		b := string(rune(c))
		if c >= 0x80 {
			b = string([]byte{byte(c)})
		}
		checkDialect(t, b+"ttp://a.example "+b+"a@b.example ("+b+"ww.c.example *"+b+"tp://d.example\n"+b+"@e.example")
	}
}

func FuzzLinkifyMatchesGoldmark(f *testing.F) {
	for _, in := range linkifyCases {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkLinkify(t, in)
	})
}

// checkLinkify requires each matcher to match as its regexp does at
// every position of in, and rgit's dialect to parse in as goldmark's GFM
// does.
func checkLinkify(t *testing.T, in string) {
	t.Helper()
	src := []byte(in)
	for i := range len(src) + 1 {
		// Each position, and the input as the rest of a URL.
		for _, line := range [][]byte{src[i:], []byte("https://" + in[i:]), []byte("www." + in[i:])} {
			if got, want := matchURL(line), regexpEnd(goldmarkURLRE, line); got != want {
				t.Fatalf("matchURL(%q) = %d, regexp says %d", line, got, want)
			}
			if got, want := matchWWW(line), regexpEnd(goldmarkWWWRE, line); got != want {
				t.Fatalf("matchWWW(%q) = %d, regexp says %d", line, got, want)
			}
		}
	}
	checkDialect(t, in)
}

// checkDialect requires rgit's dialect to parse in as goldmark's GFM does:
// the same AST and byte-identical HTML.
func checkDialect(t *testing.T, in string) {
	t.Helper()
	src := []byte(in)
	ours, theirs := newMarkdown(), goldmarkGFM()
	a := ours.Parser().Parse(text.NewReader(src))
	b := theirs.Parser().Parse(text.NewReader(src))
	if got, want := dumpAST(a, src), dumpAST(b, src); got != want {
		t.Fatalf("AST of %q differs:\nrgit:\n%s\ngoldmark:\n%s", in, got, want)
	}
	var got, want bytes.Buffer
	if err := ours.Convert(src, &got); err != nil {
		t.Fatal(err)
	}
	if err := theirs.Convert(src, &want); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("HTML of %q differs:\nrgit:     %q\ngoldmark: %q", in, got.String(), want.String())
	}
}

func regexpEnd(re *regexp.Regexp, line []byte) int {
	if m := re.FindSubmatchIndex(line); m != nil {
		return m[1]
	}
	return -1
}

// dumpAST writes what a view reads of a tree: each node's kind, text
// segments, autolinks' type, protocol and URL, links' destinations.
func dumpAST(root ast.Node, src []byte) string {
	var b strings.Builder
	var walk func(n ast.Node, depth int)
	walk = func(n ast.Node, depth int) {
		fmt.Fprintf(&b, "%s%s", strings.Repeat(" ", depth), n.Kind())
		switch t := n.(type) {
		case *ast.Text:
			fmt.Fprintf(&b, " %d-%d soft=%v hard=%v raw=%v", t.Segment.Start, t.Segment.Stop, t.SoftLineBreak(), t.HardLineBreak(), t.IsRaw())
		case *ast.String:
			fmt.Fprintf(&b, " %q", t.Value)
		case *ast.AutoLink:
			fmt.Fprintf(&b, " type=%d proto=%q url=%q label=%q", t.AutoLinkType, t.Protocol, t.URL(src), t.Label(src))
		case *ast.Link:
			fmt.Fprintf(&b, " dest=%q title=%q", t.Destination, t.Title)
		}
		b.WriteByte('\n')
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			walk(c, depth+1)
		}
	}
	walk(root, 0)
	return b.String()
}

package report

import (
	"bytes"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// linkify is goldmark's extension.Linkify (v1.8.7, MIT licence, Copyright
// (c) 2019 Yusuke Inuzuka), the bare-URL autolinks of GitHub's dialect,
// with its URL and www regexps replaced by byte matchers that find the same
// match. Go's regexp runs those patterns (a 256-fold counted repetition) on
// the rest of the line at every "http", and a report citing hundreds of
// URLs spent 40% of its parse there. Parse below is goldmark's without the
// options rgit does not set (other protocols, regexps), with one early
// return (marked), so the AST is the same: linkify_test.go compares the
// two, node by node and in HTML.
type linkify struct{}

func (linkify) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithInlineParsers(util.Prioritized(linkifyParser{}, 999)))
}

type linkifyParser struct{}

// linkifyTriggers: ' ' stands for any white space and a line head.
var linkifyTriggers = []byte{' ', '*', '_', '~', '('}

func (linkifyParser) Trigger() []byte { return linkifyTriggers }

func (linkifyParser) CloseBlock(ast.Node, parser.Context) {}

var (
	protoHTTP  = []byte("http:")
	protoHTTPS = []byte("https:")
	protoFTP   = []byte("ftp:")
	domainWWW  = []byte("www.")
)

func (linkifyParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, segment := block.PeekLine()
	consumes := 0
	start := segment.Start
	c := line[0]
	// advance if current position is not a line head.
	if c == ' ' || c == '*' || c == '_' || c == '~' || c == '(' {
		consumes++
		start++
		line = line[1:]
	}
	// Not goldmark's: every match (http, ftp, www, an email's local part)
	// starts with a letter or digit; below, anything else returns nil.
	// Deciding that first saves the work at most spaces of a text.
	if len(line) == 0 || !util.IsAlphaNumeric(line[0]) || pc.IsInLinkLabel() {
		return nil
	}

	var m []int
	var protocol []byte
	var typ ast.AutoLinkType = ast.AutoLinkURL
	if bytes.HasPrefix(line, protoHTTP) || bytes.HasPrefix(line, protoHTTPS) || bytes.HasPrefix(line, protoFTP) {
		if stop := matchURL(line); stop >= 0 {
			m = []int{0, stop}
		}
	}
	if m == nil && bytes.HasPrefix(line, domainWWW) {
		if stop := matchWWW(line); stop >= 0 {
			m = []int{0, stop}
		}
		protocol = []byte("http")
	}
	if m == nil {
		if len(line) > 0 && util.IsPunct(line[0]) {
			return nil
		}
		typ = ast.AutoLinkEmail
		stop := util.FindEmailIndex(line)
		if stop < 0 {
			return nil
		}
		at := bytes.IndexByte(line, '@')
		m = []int{0, stop, at, stop - 1}
		if bytes.IndexByte(line[m[2]:m[3]], '.') < 0 {
			return nil
		}
		lastChar := line[m[1]-1]
		if lastChar == '.' {
			m[1]--
		}
		if m[1] < len(line) {
			nextChar := line[m[1]]
			if nextChar == '-' || nextChar == '_' {
				return nil
			}
		}
	}
	if consumes != 0 {
		s := segment.WithStop(segment.Start + 1)
		ast.MergeOrAppendTextSegment(parent, s)
	}
	i := trimURLEnd(line, m[1])
	consumes += i
	block.Advance(consumes)
	n := ast.NewTextSegment(text.NewSegment(start, start+i))
	link := ast.NewAutoLink(typ, n)
	link.Protocol = protocol
	return link
}

// trimURLEnd drops the trailing punctuation of line[:end] that ends a
// sentence rather than the URL: ".,:?!*_~", a ")" without its "(", an
// entity-like "&amp;".
func trimURLEnd(line []byte, end int) int {
	opening := bytes.Count(line[:end], []byte{'('})
	closing := bytes.Count(line[:end], []byte{')'})
	i := end
	for i > 1 {
		switch line[i-1] {
		case '?', '!', '.', ',', ':', '*', '_', '~':
			i--
		case ')':
			if closing <= opening {
				return i
			}
			closing--
			i--
		case ';':
			j := i - 2
			for ; j > 0; j-- {
				if util.IsAlphaNumeric(line[j]) {
					continue
				}
				break
			}
			if j == i-2 || line[j] != '&' {
				return i
			}
			i = j
		default:
			return i
		}
	}
	return i
}

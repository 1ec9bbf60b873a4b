package plan

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// chunkCases are files whose "### " lines are not all where goldmark ends
// its blocks, or that need the whole file to parse.
var chunkCases = map[string]string{
	"fence":         "# P\n\n```\ncode\n### Not A Topic (Depth: 0)\n```\n\n### A (Depth: 0)\n- Status: Pending\n",
	"fence in item": "### A (Depth: 0)\n- x\n  ```\n### B (Depth: 0)\n  ```\n### C (Depth: 0)\n```\n### D (Depth: 0)\n",
	"html block":    "### A (Depth: 0)\n<div>\n### B (Depth: 0)\n\n### C (Depth: 0)\n",
	"html comment":  "### A (Depth: 0)\n<!--\n\n### B (Depth: 0)\n-->\n### C (Depth: 0)\n",
	"link ref":      "### [A] (Depth: 0)\n- Status: Pending\n### B (Depth: 0)\n[a]: http://example.com\n",
	"no blank":      "### A (Depth: 0)\n- Status: Pending\n### B (Depth: 0)\npara\n### C (Depth: 0)\n\n\n### D\n",
	"lazy":          "### A\n> quote\nlazy\n### B\n- item\nlazy\n### C\n    code\n### D\n",
	"setext":        "### A\nText\n---\n### B\nText\n===\n### C\n",
	"emphasis":      "### *A\n### B*\n**x\n### C**\n",
}

// TestParseChunks checks that parsing in pieces, cut at every "### " line,
// builds the same document as one goldmark parse of the whole file.
func TestParseChunks(t *testing.T) {
	srcs := map[string][]byte{
		"full 3x3": Render(fullPlan(3, 3)),
	}
	for name, src := range chunkCases {
		srcs[name] = []byte(src)
	}
	files, _ := filepath.Glob(filepath.Join(plansDir, "*.md"))
	more, _ := filepath.Glob(filepath.Join(plansDir, "*", "*.md"))
	for _, f := range append(files, more...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs[f] = src
	}
	for name, src := range srcs {
		t.Run(name, func(t *testing.T) {
			if d := chunkDiff(src); d != "" {
				t.Error(d)
			}
		})
	}
	if at := cuts(srcs["full 3x3"], 1); len(at) != 120+2 {
		t.Errorf("a full plan of 120 topics is cut in %d pieces, want 121", len(at)-1)
	}
}

// FuzzParseChunks checks on arbitrary files that parsing in pieces builds
// the document of one goldmark parse.
func FuzzParseChunks(f *testing.F) {
	for _, src := range chunkCases {
		f.Add([]byte(src))
	}
	f.Add(Render(fullPlan(2, 2)))
	f.Fuzz(func(t *testing.T, src []byte) {
		if d := chunkDiff(src); d != "" {
			t.Error(d)
		}
	})
}

// chunkDiff parses src whole and in pieces and describes the first
// difference between the two documents or the two plans read from them, or
// returns "".
func chunkDiff(src []byte) string {
	whole := dumpAST(src, md.Parse(text.NewReader(src)))
	joined := ast.NewDocument()
	if !parsePieces(src, cuts(src, 1), 2, func(doc ast.Node, _ int) {
		for c := doc.FirstChild(); c != nil; {
			next := c.NextSibling()
			joined.AppendChild(joined, c)
			c = next
		}
	}) {
		joined = md.Parse(text.NewReader(src)).(*ast.Document)
	}
	if pieces := dumpAST(src, joined); whole != pieces {
		w, p := strings.Split(whole, "\n"), strings.Split(pieces, "\n")
		for i := range min(len(w), len(p)) {
			if w[i] != p[i] {
				return fmt.Sprintf("line %d of the AST dump: whole %q, pieces %q\nsource:\n%s", i+1, w[i], p[i], src)
			}
		}
		return fmt.Sprintf("AST dump has %d lines whole, %d in pieces\nsource:\n%s", len(w), len(p), src)
	}
	p, perr := parse("plan.md", src, 1)
	q, qerr := parse("plan.md", src, len(src)+1)
	if fmt.Sprint(perr) != fmt.Sprint(qerr) {
		return fmt.Sprintf("error %v in pieces, %v whole\nsource:\n%s", perr, qerr, src)
	}
	if !reflect.DeepEqual(p, q) {
		return fmt.Sprintf("plan in pieces %s, whole %s\nsource:\n%s", dumpPlan(p), dumpPlan(q), src)
	}
	return ""
}

func dumpPlan(p *Plan) string {
	s := fmt.Sprintf("%+v", *p)
	for _, t := range p.Topics {
		s += fmt.Sprintf("\n%+v", *t)
	}
	return s
}

// dumpAST writes every node with its position, lines and the fields of its
// kind that parsing sets.
func dumpAST(src []byte, doc ast.Node) string {
	var b strings.Builder
	var dump func(n ast.Node, depth int)
	dump = func(n ast.Node, depth int) {
		fmt.Fprintf(&b, "%s%s pos=%d", strings.Repeat(" ", depth), n.Kind(), n.Pos())
		if n.Type() == ast.TypeBlock {
			fmt.Fprintf(&b, " blank=%v lines=%v", n.HasBlankPreviousLines(), n.Lines().Sliced(0, n.Lines().Len()))
		}
		switch n := n.(type) {
		case *ast.Text:
			fmt.Fprintf(&b, " seg=%v soft=%v hard=%v raw=%v", n.Segment, n.SoftLineBreak(), n.HardLineBreak(), n.IsRaw())
		case *ast.String:
			fmt.Fprintf(&b, " %q code=%v raw=%v", n.Value, n.IsCode(), n.IsRaw())
		case *ast.Heading:
			fmt.Fprintf(&b, " level=%d", n.Level)
		case *ast.List:
			fmt.Fprintf(&b, " marker=%c tight=%v start=%d", n.Marker, n.IsTight, n.Start)
		case *ast.ListItem:
			fmt.Fprintf(&b, " offset=%d", n.Offset)
		case *ast.Emphasis:
			fmt.Fprintf(&b, " level=%d", n.Level)
		case *ast.Link:
			fmt.Fprintf(&b, " %q %q", n.Destination, n.Title)
		case *ast.Image:
			fmt.Fprintf(&b, " %q %q", n.Destination, n.Title)
		case *ast.AutoLink:
			fmt.Fprintf(&b, " %q type=%d", n.URL(src), n.AutoLinkType)
		case *ast.RawHTML:
			fmt.Fprintf(&b, " %v", n.Segments.Sliced(0, n.Segments.Len()))
		case *ast.HTMLBlock:
			fmt.Fprintf(&b, " type=%d closure=%v", n.HTMLBlockType, n.ClosureLine)
		case *ast.FencedCodeBlock:
			if n.Info != nil {
				fmt.Fprintf(&b, " info=%v", n.Info.Segment)
			}
		}
		b.WriteByte('\n')
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			dump(c, depth+1)
		}
	}
	dump(doc, 0)
	return b.String()
}

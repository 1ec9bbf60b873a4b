package plan

// Parsing a long plan in pieces: goldmark is the bulk of Parse's time, and
// a plan is mostly a run of independent "### " sections, so runs of
// sections are parsed on all CPUs and read in file order. Their blocks are
// those of one goldmark parse of the whole file, or the file is parsed
// whole.

import (
	"bytes"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/yuin/goldmark/ast"
	gmparser "github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// A file is cut in one piece per CPU, but pieces are at least minPiece
// bytes (a few dozen topics; smaller ones cost more to hand to a goroutine
// than they save) and at most maxPiece: small pieces keep each piece's AST
// in cache while goldmark builds it, which pays even on one CPU.
const (
	minPiece = 8 << 10
	maxPiece = 32 << 10
)

// pieceSize is the size of the pieces a file of n bytes is parsed in.
func pieceSize(n int) int {
	return min(max(n/runtime.GOMAXPROCS(0), minPiece), maxPiece)
}

// cuts returns the offsets where src is split, first 0 and last len(src):
// the starts of "### " lines at least size bytes apart. Whether goldmark
// ends every block before such a line is checked after parsing, by
// parsePieces.
func cuts(src []byte, size int) []int {
	at := []int{0}
	for i := size; i < len(src); {
		j := bytes.Index(src[i-1:], []byte("\n### "))
		if j < 0 {
			break
		}
		c := i + j // the start of the "### " line
		at = append(at, c)
		i = c + size
	}
	return append(at, len(src))
}

// parsePieces parses the pieces of src between the offsets in at on up to
// workers goroutines and hands each piece's document, in order, to visit
// with the offset where the piece ends; visit reads one while goldmark
// parses the next. Together the pieces hold the blocks of a single parse
// of src: each piece but the first starts with an ATX heading at column 0,
// which ends every open block but a fenced code block or an HTML block. A
// piece that ends in one of those, or a link reference definition anywhere
// (it applies to the whole file), makes parsePieces stop and return false:
// what visit read is then wrong, and src must be parsed whole.
func parsePieces(src []byte, at []int, workers int, visit func(doc ast.Node, end int)) bool {
	n := len(at) - 1
	if n <= 1 {
		visit(md.Parse(text.NewReader(src)), len(src))
		return true
	}
	docs := make([]ast.Node, n)
	refs := make([]bool, n)
	ready := make([]chan struct{}, n)
	for i := range ready {
		ready[i] = make(chan struct{})
	}
	var next atomic.Int32
	var stop atomic.Bool
	var wg sync.WaitGroup
	defer wg.Wait()
	defer stop.Store(true)
	for range min(workers, n) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n && !stop.Load(); i = int(next.Add(1)) - 1 {
				docs[i], refs[i] = parsePiece(src, at[i], at[i+1])
				close(ready[i])
			}
		})
	}
	for i := range n {
		<-ready[i]
		if refs[i] {
			return false
		}
		if i < n-1 {
			switch docs[i].LastChild().(type) {
			case *ast.FencedCodeBlock, *ast.HTMLBlock:
				return false
			}
		}
		if i > 0 {
			// Alone, the piece's heading had nothing before it; in the
			// file it follows whatever line precedes it.
			h := docs[i].FirstChild()
			h.SetBlankPreviousLines(blankBefore(src, h.Pos()))
		}
		visit(docs[i], at[i+1])
		docs[i] = nil // read: its AST can go before the file is done
	}
	return true
}

// parsePiece parses src[from:to] with node positions counted from the
// start of src, and reports whether it defines link references.
func parsePiece(src []byte, from, to int) (ast.Node, bool) {
	r := text.NewReader(src[:to])
	// Position the reader on an empty line ending at from: advancing one
	// line starts it at from, with the line's start set there too.
	r.SetPosition(0, text.NewSegment(from, from))
	r.AdvanceLine()
	pc := gmparser.NewContext()
	doc := md.Parse(r, gmparser.WithContext(pc))
	return doc, len(pc.References()) > 0
}

// blankBefore reports whether the line before offset off (a line start) is
// blank.
func blankBefore(src []byte, off int) bool {
	if off == 0 {
		return true
	}
	ls := bytes.LastIndexByte(src[:off-1], '\n') + 1
	return util.IsBlank(src[ls:off])
}

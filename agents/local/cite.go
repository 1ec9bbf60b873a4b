package local

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/rgit-dev/rgit/agents/local/index"
)

// CitationError is one citation that does not verify.
type CitationError struct {
	Citation string // as written: "sync/mutex.go:120-131"
	Line     int    // 1-based line of the report where it appears
	Reason   string
}

func (e CitationError) Error() string {
	return fmt.Sprintf("line %d: %s: %s", e.Line, e.Citation, e.Reason)
}

// citation is one `path:start-end` reference and the quotation under it.
type citation struct {
	Path       string
	Start, End int
	Line       int      // report line of the citation (1-based)
	Quote      []string // the fenced lines right below it; nil if none
	QuoteTo    int      // report line index (0-based) of the closing fence, or -1
	Label      string   // text after the citation on its line
}

func (c citation) String() string { return fmt.Sprintf("%s:%d-%d", c.Path, c.Start, c.End) }

var citeRE = regexp.MustCompile("`([^`\\s:]+):([0-9]+)-([0-9]+)`")

// parseCitations finds every citation of a report and its quotation: the
// fenced block that starts on the next line.
func parseCitations(report string) []citation {
	lines := strings.Split(report, "\n")
	var out []citation
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if isFence(l) { // skip quoted text: a citation inside a quote is data
			_, to := fenceBlock(lines, i)
			i = to
			continue
		}
		ms := citeRE.FindAllStringSubmatchIndex(l, -1)
		for k, m := range ms {
			start, _ := strconv.Atoi(l[m[4]:m[5]])
			end, _ := strconv.Atoi(l[m[6]:m[7]])
			c := citation{Path: l[m[2]:m[3]], Start: start, End: end, Line: i + 1, QuoteTo: -1}
			c.Label = strings.TrimSpace(l[m[1]:])
			if k == len(ms)-1 && i+1 < len(lines) && isFence(lines[i+1]) {
				c.Quote, c.QuoteTo = fenceBlock(lines, i+1)
			}
			out = append(out, c)
		}
	}
	return out
}

func isFence(l string) bool { return strings.HasPrefix(strings.TrimLeft(l, " "), "```") }

// fenceBlock returns the content of the fenced block opening at lines[i],
// with the fence's indentation removed, and the index of its closing line.
func fenceBlock(lines []string, i int) ([]string, int) {
	open := lines[i]
	indent := len(open) - len(strings.TrimLeft(open, " "))
	fence := strings.TrimLeft(open, " ")
	n := len(fence) - len(strings.TrimLeft(fence, "`"))
	closing := strings.Repeat("`", n)
	content := []string{}
	for j := i + 1; j < len(lines); j++ {
		t := strings.TrimLeft(lines[j], " ")
		if strings.HasPrefix(t, closing) && strings.Trim(t, "` ") == "" && len(lines[j])-len(t) <= indent+3 {
			return content, j
		}
		l := lines[j]
		cut := 0
		for cut < indent && cut < len(l) && l[cut] == ' ' {
			cut++
		}
		content = append(content, l[cut:])
	}
	return content, len(lines) - 1
}

// VerifyCitations checks every `path:start-end` citation in a report: the
// path resolves under one of roots (see the package doc for the form), the
// line range exists, and the quotation fenced right below the citation, if
// any, is exactly the file's text at those lines. It returns the failures,
// in report order; none means every citation verifies.
func VerifyCitations(report []byte, roots []string) []CitationError {
	files := map[string][]string{}
	var errs []CitationError
	for _, c := range parseCitations(string(report)) {
		fail := func(format string, args ...any) {
			errs = append(errs, CitationError{Citation: c.String(), Line: c.Line, Reason: fmt.Sprintf(format, args...)})
		}
		abs := resolveCite(c.Path, roots)
		if abs == "" {
			fail("no such file under the corpus roots")
			continue
		}
		lines, ok := files[abs]
		if !ok {
			lines = readLines(abs)
			files[abs] = lines
		}
		switch {
		case lines == nil:
			fail("cannot read the file as text")
		case c.Start < 1 || c.End < c.Start || c.End > len(lines):
			fail("lines out of range (the file has %d)", len(lines))
		case c.Quote != nil && !equalLines(c.Quote, lines[c.Start-1:c.End]):
			fail("quoted text differs from the file at those lines")
		}
	}
	return errs
}

func equalLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.TrimRight(a[i], " \t") != strings.TrimRight(b[i], " \t") {
			return false
		}
	}
	return true
}

// lineCache keeps the lines of files read recently, keyed by path, size
// and modification time: every phase reads and verifies the same files,
// and a compressed man page costs a decompression each time.
var lineCache = struct {
	sync.Mutex
	m map[string][]string
}{m: map[string][]string{}}

const lineCacheMax = 2048

// readLines reads a file as the index sees it (HTML as text, a man page
// as its text), nil if it cannot be read or is binary. The slice is
// shared: callers must not modify it.
func readLines(abs string) []string {
	st, err := os.Stat(abs)
	if err != nil {
		return nil
	}
	key := fmt.Sprintf("%s\x00%d\x00%d", abs, st.Size(), st.ModTime().UnixNano())
	lineCache.Lock()
	l, ok := lineCache.m[key]
	lineCache.Unlock()
	if ok {
		return l
	}
	l = readLinesUncached(abs)
	lineCache.Lock()
	if len(lineCache.m) >= lineCacheMax {
		clear(lineCache.m)
	}
	lineCache.m[key] = l
	lineCache.Unlock()
	return l
}

func readLinesUncached(abs string) []string {
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil
	}
	text, ok := index.Text(abs, data)
	if !ok {
		return nil
	}
	lines := index.Lines(text)
	if lines == nil {
		lines = []string{}
	}
	return lines
}

// resolveCite maps a citation path to a file: its leading elements must be
// the trailing elements of a root ("src/sync/mutex.go" under the root
// /usr/local/go/src, or under /usr/local/go/src/sync as "sync/mutex.go").
func resolveCite(p string, roots []string) string {
	parts := strings.Split(p, "/")
	for _, e := range parts {
		if e == "" || e == "." || e == ".." {
			return ""
		}
	}
	for _, r := range roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			continue
		}
		slash := filepath.ToSlash(abs)
		for k := 1; k < len(parts); k++ {
			prefix := strings.Join(parts[:k], "/")
			if slash != prefix && !strings.HasSuffix(slash, "/"+prefix) {
				continue
			}
			f := filepath.Join(abs, filepath.FromSlash(strings.Join(parts[k:], "/")))
			if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
				return f
			}
		}
	}
	return ""
}

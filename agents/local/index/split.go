package index

import (
	"regexp"
	"strings"
)

// Passage is one retrievable unit of a file: lines Start..End (1-based,
// inclusive) and a label naming it, such as the declared identifier
// ("Mutex.lockSlow") or the Markdown heading it sits under.
type Passage struct {
	Start, End int
	Label      string
}

// Passage sizes. A passage is a unit that explains something whole: a
// function or type with its doc comment, a section of a document. Long
// ones are cut at blank lines to at most the cap; a document's paragraphs
// are gathered until a passage has proseChunk lines, so a short section is
// one passage and a long one a few.
const (
	maxCodeLines  = 80
	maxProseLines = 30
	proseChunk    = 12
)

// Split cuts a file's lines into passages. Code is cut into top-level
// declarations, each with the comment block just above it (a new block
// starts at a column-0 line that follows a blank line or a closing
// bracket); prose into sections, a heading starting a new one, and long
// sections at paragraph breaks. heads, from Outline, gives the headings of
// formats whose heading lines Split cannot see (HTML, man pages).
func Split(path string, lines []string, heads map[int]string) []Passage {
	kind := KindOf(path)
	limit := maxProseLines
	if kind == Code {
		limit = maxCodeLines
	}
	var out []Passage
	heading := ""
	start := -1

	flush := func(end int) { // lines[start:end]
		if start < 0 {
			return
		}
		for start < end && strings.TrimSpace(lines[start]) == "" {
			start++
		}
		for end > start && strings.TrimSpace(lines[end-1]) == "" {
			end--
		}
		if end > start {
			label := heading
			if kind == Code {
				label = codeLabel(lines[start:end])
			}
			out = appendCut(out, lines, start, end, limit, label)
		}
		start = -1
	}
	for i, l := range lines {
		blank := strings.TrimSpace(l) == ""
		if kind == Code {
			if !blank && isBlockStart(lines, i) {
				flush(i)
			}
		} else {
			if blank {
				if start >= 0 && i-start >= proseChunk {
					flush(i)
				}
				continue
			}
			h, ok := heads[i+1]
			if !ok {
				h, ok = mdHeading(l)
			}
			if ok {
				flush(i)
				heading = h
			}
		}
		if start < 0 && !blank {
			start = i
		}
	}
	flush(len(lines))
	return out
}

// isBlockStart reports whether code line i opens a new top-level block.
func isBlockStart(lines []string, i int) bool {
	l := lines[i]
	if i == 0 || l[0] == ' ' || l[0] == '\t' || strings.IndexByte("})]", l[0]) >= 0 {
		return i == 0
	}
	prev := lines[i-1]
	if strings.TrimSpace(prev) == "" {
		return true
	}
	return strings.IndexByte("})]", prev[0]) >= 0
}

// appendCut appends lines[start:end] as passages of at most limit lines,
// cutting at blank lines where possible.
func appendCut(out []Passage, lines []string, start, end, limit int, label string) []Passage {
	for start < end {
		stop := end
		if end-start > limit {
			stop = start + limit
			for k := stop - 1; k > start+limit/3; k-- {
				if strings.TrimSpace(lines[k]) == "" {
					stop = k
					break
				}
			}
		}
		e := stop
		for e > start && strings.TrimSpace(lines[e-1]) == "" {
			e--
		}
		if e > start {
			out = append(out, Passage{Start: start + 1, End: e, Label: label})
		}
		start = stop
		for start < end && strings.TrimSpace(lines[start]) == "" {
			start++
		}
	}
	return out
}

// mdHeading returns the text of a Markdown ATX heading line.
func mdHeading(l string) (string, bool) {
	if !strings.HasPrefix(l, "#") {
		return "", false
	}
	t := strings.TrimLeft(l, "#")
	if len(l)-len(t) > 6 || t != "" && t[0] != ' ' {
		return "", false
	}
	return strings.TrimSpace(strings.TrimRight(t, "# ")), true
}

var (
	goFunc   = regexp.MustCompile(`^func\s*(?:\(\s*(?:\w+\s+)?\*?(\w+)[^)]*\)\s*)?(\w+)`)
	declName = regexp.MustCompile(`^(?:export\s+|pub(?:\([^)]*\))?\s+|async\s+|static\s+)*(?:type|var|const|def|class|fn|function|struct|enum|interface|impl|trait|module|let)\s+(\w+)`)
	groupOpn = regexp.MustCompile(`^(?:type|var|const)\s*\($`)
	firstID  = regexp.MustCompile(`^\s*(\w+)`)
	cFunc    = regexp.MustCompile(`^[\w\s\*]*?(\w+)\s*\(`)
)

// codeLabel names a block by the identifier it declares.
func codeLabel(block []string) string {
	for i, l := range block {
		t := strings.TrimSpace(l)
		if t == "" || isComment(t) {
			continue
		}
		// The cheap tests before each expression only skip lines it
		// cannot match.
		if m := matchIf(strings.HasPrefix(l, "func"), goFunc, l); m != nil {
			if m[1] != "" {
				return m[1] + "." + m[2]
			}
			return m[2]
		}
		if groupOpn.MatchString(t) {
			for _, g := range block[i+1:] {
				if gt := strings.TrimSpace(g); gt != "" && !isComment(gt) {
					if m := firstID.FindStringSubmatch(g); m != nil {
						return m[1]
					}
				}
			}
			return ""
		}
		if m := declName.FindStringSubmatch(l); m != nil {
			return m[1]
		}
		if m := matchIf(l[0] != ' ' && l[0] != '\t' && strings.IndexByte(l, '(') >= 0, cFunc, l); m != nil {
			return m[1]
		}
		return ""
	}
	return ""
}

// matchIf is re's submatches of s when cond holds, else nil.
func matchIf(cond bool, re *regexp.Regexp, s string) []string {
	if !cond {
		return nil
	}
	return re.FindStringSubmatch(s)
}

func isComment(t string) bool {
	return strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "/*") ||
		strings.HasPrefix(t, "*") || strings.HasPrefix(t, "--") || strings.HasPrefix(t, ";")
}

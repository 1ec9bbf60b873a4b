package local

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/rgit-dev/rgit/agents/local/index"
)

// maxQuote caps a finding's quotation, in lines: most whole functions and
// document sections fit, so a mechanism is quoted whole.
const maxQuote = 40

// finding is one quotation with its citation.
type finding struct {
	Path       string // citation path
	Abs        string
	Start, End int
	Lines      []string
	Label      string  // the passage's identifier or heading
	Score      float64 // relevance to the query that found it
	Words      []string
}

func (f finding) cite() string { return fmt.Sprintf("%s:%d-%d", f.Path, f.Start, f.End) }

// lineScores scores each line by the weighted idf of the query terms it
// has. Comment lines count half again: in code they are where the "how"
// and "why" are written down.
func (r *run) lineScores(lines []string, q index.Query) []float64 {
	out := make([]float64, len(lines))
	for i, l := range lines {
		for _, t := range index.Terms(l) {
			if w := q[t]; w > 0 {
				out[i] += w * r.ix.IDF(t)
			}
		}
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "*") {
			out[i] *= 1.5
		}
	}
	return out
}

// window returns the best run of at most n lines (by summed line scores),
// without leading or trailing blank lines, as offsets into lines.
func window(lines []string, scores []float64, n int) (int, int) {
	bestS, bestE, best := 0, min(n, len(lines)), -1.0
	for s := 0; s < len(lines); s++ {
		if s > 0 && len(lines)-s < n {
			break
		}
		e := min(s+n, len(lines))
		sum := 0.0
		for _, v := range scores[s:e] {
			sum += v
		}
		if sum > best {
			bestS, bestE, best = s, e, sum
		}
	}
	for bestS < bestE && strings.TrimSpace(lines[bestS]) == "" {
		bestS++
	}
	for bestE > bestS && strings.TrimSpace(lines[bestE-1]) == "" {
		bestE--
	}
	return bestS, bestE
}

// makeFinding turns a search hit into a quotation of its best lines.
func (r *run) makeFinding(h index.Hit, q index.Query) (finding, bool) {
	f, p := r.ix.Passage(h.Doc)
	abs := r.ix.AbsPath(f)
	all := r.lines(abs)
	if all == nil || p.End > len(all) {
		return finding{}, false // the file changed since it was indexed
	}
	lines := all[p.Start-1 : p.End]
	s, e := window(lines, r.lineScores(lines, q), maxQuote)
	if s >= e {
		return finding{}, false
	}
	fd := finding{
		Path: r.ix.CitePath(f), Abs: abs, Start: p.Start + s, End: p.Start + e - 1,
		Lines: lines[s:e], Label: p.Label, Score: h.Score,
	}
	fd.Words = matchedWords(fd.Lines, q)
	return fd, true
}

// matchedWords lists, in order of appearance, the words of lines whose terms
// the query asks for: a reader sees at once why a quotation was chosen.
func matchedWords(lines []string, q index.Query) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range lines {
		for _, w := range strings.FieldsFunc(l, func(c rune) bool {
			return !(c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')
		}) {
			w = strings.Trim(w, ".")
			key := strings.ToLower(w)
			if w == "" || seen[key] {
				continue
			}
			for _, t := range index.Terms(w) {
				if q[t] > 0 {
					seen[key] = true
					out = append(out, w)
					break
				}
			}
		}
	}
	return out[:min(len(out), 8)]
}

// lang is the fence's info string for a file.
func lang(p string) string {
	switch ext := strings.TrimPrefix(path.Ext(p), "."); ext {
	case "go", "c", "h", "py", "js", "ts", "java", "rs", "rb", "sh", "md", "json", "yaml", "toml", "s":
		return ext
	}
	return "text"
}

// writeQuote writes a citation line and its fenced quotation. lead goes
// before the citation ("- " or "- [3] "), indent before every line.
func writeQuote(sb *strings.Builder, indent, lead string, f finding) {
	label := f.Label
	if label != "" {
		label = " " + strings.ReplaceAll(label, "`", "'")
	}
	words := ""
	if len(f.Words) > 0 {
		words = " (mentions " + strings.ReplaceAll(strings.Join(f.Words, ", "), "`", "'") + ")"
	}
	fmt.Fprintf(sb, "%s%s`%s`%s%s\n", indent, lead, f.cite(), label, words)
	fence := "```"
	for _, l := range f.Lines {
		for strings.Contains(l, fence) {
			fence += "`"
		}
	}
	// Continuation lines align with the list item's content (the width of
	// "- " or "1. "), or Markdown would read them as an indented code block.
	marker, _, _ := strings.Cut(lead, " ")
	in := indent + strings.Repeat(" ", len(marker)+1)
	fmt.Fprintf(sb, "%s%s%s\n", in, fence, lang(f.Path))
	for _, l := range f.Lines {
		if l == "" {
			sb.WriteString("\n")
			continue
		}
		sb.WriteString(in + l + "\n")
	}
	fmt.Fprintf(sb, "%s%s\n", in, fence)
}

// findingsOf reads the verified quotations of a progress file or report.
func (r *run) findingsOf(text string) []finding {
	bad := map[int]bool{}
	for _, e := range VerifyCitations([]byte(text), r.roots()) {
		bad[e.Line] = true
	}
	var out []finding
	for _, c := range parseCitations(text) {
		if bad[c.Line] || c.Quote == nil {
			continue
		}
		f := finding{Path: c.Path, Abs: resolveCite(c.Path, r.roots()), Start: c.Start, End: c.End, Lines: c.Quote}
		f.Label, f.Words = splitLabel(c.Label)
		out = append(out, f)
	}
	return out
}

// splitLabel undoes writeQuote's "label (mentions a, b)".
func splitLabel(s string) (string, []string) {
	label, words, ok := strings.Cut(" "+s, " (mentions ")
	if !ok {
		return s, nil
	}
	return strings.TrimSpace(label), strings.Split(strings.TrimSuffix(words, ")"), ", ")
}

// distinctFiles counts the files among findings.
func distinctFiles(fs []finding) int {
	var paths []string
	for _, f := range fs {
		paths = append(paths, f.Path)
	}
	slices.Sort(paths)
	return len(slices.Compact(paths))
}

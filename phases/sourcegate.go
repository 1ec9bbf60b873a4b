package phases

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/rgit-dev/rgit/phases/report"
)

// urlCite is one cited URL of a document with what it is cited as and
// the quotations attributed to it.
type urlCite struct {
	ref    string // how a reader finds it: "[4]", "Source 4", or the URL itself
	url    string
	key    string // normURL(url), the sources' key
	quotes []string
}

// citeProblem is a URL citation its sources do not back.
type citeProblem struct {
	cite urlCite
	why  string
}

func (p citeProblem) String() string {
	if p.cite.ref == p.cite.url {
		return fmt.Sprintf("citation %s %s", p.cite.url, p.why)
	}
	return fmt.Sprintf("citation %s %s %s", p.cite.ref, p.cite.url, p.why)
}

// sourceRefRE finds a progress file's source references: "(Source 4)",
// or a group as the research prompt shows it, "(Source 2, Source 3)";
// sourceNumRE finds each number in one.
var (
	sourceRefRE = regexp.MustCompile(`\(Source \d{1,4}(?:[,;] ?Source \d{1,4})*\)`)
	sourceNumRE = regexp.MustCompile(`Source (\d{1,4})`)
)

// sourceRefs calls fn with each source number of a reference sourceRefRE found.
func sourceRefs(ref string, fn func(n int, num string)) {
	for _, m := range sourceNumRE.FindAllStringSubmatch(ref, -1) {
		n, _ := strconv.Atoi(m[1])
		fn(n, m[1])
	}
}

// urlCites lists the URL citations of doc, parsed as d, one per URL in
// order of first appearance: URLs and links in the text, numbered
// citations ("[4]", or a progress file's "(Source 4)" and "(Source 2,
// Source 3)") whose sources-list
// entry has a URL, and every URL of the sources list itself. A quotation
// on a line is attributed to the URLs cited on that line.
func urlCites(d *report.Document, doc []byte) []urlCite {
	lines := strings.Split(string(doc), "\n")
	// A report cites several pages on many of its lines: find each
	// line's quotations once.
	quoted := map[int][]string{}
	quotes := func(n int) []string {
		if n < 1 || n > len(lines) {
			return nil
		}
		q, ok := quoted[n]
		if !ok {
			q = quotations(lines[n-1])
			quoted[n] = q
		}
		return q
	}
	var out []urlCite
	index := map[string]int{}
	add := func(ref, u string, ln int) {
		key := normURL(u)
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, urlCite{ref: ref, url: u, key: key})
		}
		for _, q := range quotes(ln) {
			if !slices.Contains(out[i].quotes, q) {
				out[i].quotes = append(out[i].quotes, q)
			}
		}
	}
	for _, c := range d.Citations {
		switch {
		case c.Kind == report.URL || c.Kind == report.Link:
			add(c.URL, c.URL, c.Line)
		case c.Kind == report.Numbered && c.Source != nil && c.Source.URL != "":
			add("["+strconv.Itoa(c.Number)+"]", c.Source.URL, c.Line)
		}
	}
	for i, l := range lines {
		if !strings.Contains(l, "(Source ") {
			continue
		}
		for _, ref := range sourceRefRE.FindAllString(l, -1) {
			sourceRefs(ref, func(n int, num string) {
				if s := d.Source(n); s != nil && s.URL != "" {
					add("Source "+num, s.URL, i+1)
				}
			})
		}
	}
	for _, s := range d.Sources {
		if s.URL != "" {
			add("["+strconv.Itoa(s.Number)+"]", s.URL, 0)
		}
	}
	return out
}

// checkCites checks each URL citation of doc against the sources: the URL
// must have been read, and each quotation attributed to it must be in the
// text read. It returns the problems and how many citations passed of how
// many.
func checkCites(doc []byte, known *sourceSet) (problems []citeProblem, passed, total int) {
	cites := known.citesOf(doc)
	// A quotation on a line citing several pages needs to be in one of
	// them: found[q] says it is in some page it is attributed to.
	found := map[string]bool{}
	for _, c := range cites {
		if _, ok := known.byURL[c.key]; ok {
			for _, q := range c.quotes {
				found[q] = found[q] || known.quotes(c.key, q)
			}
		}
	}
	for _, c := range cites {
		total++
		src, ok := known.byURL[c.key]
		if !ok {
			problems = append(problems, citeProblem{c, "was never fetched"})
			continue
		}
		bad := false
		for _, q := range c.quotes {
			switch {
			case found[q]:
			case strings.TrimSpace(src.Text) == "":
				problems = append(problems, citeProblem{c, fmt.Sprintf("is quoted (%q) but its backend recorded no text to check it against", oneLine(q))})
				bad = true
			case !found[q]:
				problems = append(problems, citeProblem{c, fmt.Sprintf("quotation %q is not in the text fetched from it", oneLine(q))})
				bad = true
			}
		}
		if !bad {
			passed++
		}
	}
	return problems, passed, total
}

// citeError is the gate's failure, which the recovery prompt shows the
// agent: each unbacked citation, at most eight of them.
func citeError(problems []citeProblem) error {
	var b strings.Builder
	for i, p := range problems {
		if i == 8 {
			fmt.Fprintf(&b, "; and %d more", len(problems)-i)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.String())
	}
	return fmt.Errorf("%s (cite only pages you fetched with your own tools, quote them exactly, or remove the citation)", b.String())
}

// unverifiedMark is what rgit writes next to a citation it could not verify.
const unverifiedMark = " *(unverified)*"

// markUnverified writes unverifiedMark after every citation of the
// problems' URLs: numbered citations, "(Source n)" references, URLs and
// links in the text, and their sources-list entries. Marking twice changes
// nothing.
func markUnverified(doc []byte, problems []citeProblem) []byte {
	bad := map[string]bool{}
	for _, p := range problems {
		bad[normURL(p.cite.url)] = true
	}
	if len(bad) == 0 {
		return doc
	}
	d := report.Parse(doc)
	src := string(doc)
	var at []int // byte offsets to insert the mark at
	lineEnd := func(off int) int {
		if i := strings.IndexByte(src[off:], '\n'); i >= 0 {
			return off + i
		}
		return len(src)
	}
	for _, c := range d.Citations {
		switch {
		case (c.Kind == report.URL || c.Kind == report.Link) && bad[normURL(c.URL)]:
			end := c.Offset + len(c.URL)
			if i := strings.Index(src[c.Offset:], c.URL); i >= 0 {
				end = c.Offset + i + len(c.URL)
			}
			if c.Kind == report.Link {
				if i := strings.Index(src[c.Offset:], "("+c.URL+")"); i >= 0 {
					end = c.Offset + i + len(c.URL) + 2
				}
			} else if end < len(src) && src[end] == '>' {
				end++
			}
			at = append(at, min(end, len(src)))
		case c.Kind == report.Numbered && c.Source != nil && bad[normURL(c.Source.URL)]:
			if i := strings.IndexByte(src[c.Offset:], ']'); i >= 0 {
				at = append(at, c.Offset+i+1)
			}
		}
	}
	offsets := lineOffsets(src)
	// A group is marked once, after it, when any page in it is.
	for _, m := range sourceRefRE.FindAllStringIndex(src, -1) {
		marked := false
		sourceRefs(src[m[0]:m[1]], func(n int, _ string) {
			if s := d.Source(n); s != nil && bad[normURL(s.URL)] && !marked {
				at, marked = append(at, m[1]), true
			}
		})
	}
	for _, s := range d.Sources {
		if bad[normURL(s.URL)] && s.Line >= 1 && s.Line <= len(offsets) {
			at = append(at, lineEnd(offsets[s.Line-1]))
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(at)))
	out := src
	last := -1
	for _, off := range at {
		if off == last || strings.HasPrefix(out[off:], unverifiedMark) || strings.HasSuffix(out[:off], unverifiedMark) {
			continue
		}
		last = off
		out = out[:off] + unverifiedMark + out[off:]
	}
	return []byte(out)
}

// lineOffsets are the byte offsets at which each line of s starts.
func lineOffsets(s string) []int {
	out := []int{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' && i+1 < len(s) {
			out = append(out, i+1)
		}
	}
	return out
}

// citeGate is a call's citation gate over the file at path: a citation
// the sources do not back fails the attempt, with the citations named for
// the recovery prompt, until the agent's last fix attempt, which keeps the
// file with each such citation marked unverified.
func citeGate(path string, seen *sourceSet) func(lastTry bool) error {
	return func(lastTry bool) error {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil // the gate before this one reports a missing file
		}
		problems, _, _ := checkCites(data, seen)
		if len(problems) == 0 {
			return nil
		}
		if !lastTry {
			return citeError(problems)
		}
		return writeFile(path, markUnverified(data, problems))
	}
}

package phases

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/rgit-dev/rgit/phases/report"
)

// sourceRefRE finds a progress file's source references: "(Source 4)",
// or a group as the research prompt shows it, "(Source 2, Source 3)";
// sourceNumRE finds each number in one.
var (
	sourceRefRE = regexp.MustCompile(`\(Source \d{1,4}(?:[,;] ?Source \d{1,4})*\)`)
	sourceNumRE = regexp.MustCompile(`Source (\d{1,4})`)
)

// sourceNums are the source numbers, as written, of a reference
// sourceRefRE found.
func sourceNums(ref string) []string {
	var out []string
	for _, m := range sourceNumRE.FindAllStringSubmatch(ref, -1) {
		out = append(out, m[1])
	}
	return out
}

// refNumber is a number sourceNumRE matched (at most four digits).
func refNumber(num string) int {
	n, _ := strconv.Atoi(num)
	return n
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
		for _, num := range sourceNums(src[m[0]:m[1]]) {
			if s := d.Source(refNumber(num)); s != nil && bad[normURL(s.URL)] {
				at = append(at, m[1])
				break
			}
		}
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

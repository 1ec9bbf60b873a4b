package phases

import (
	"fmt"
	"os"
	"slices"
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

// urlCites lists the URL citations of doc, parsed as d, one per URL in
// order of first appearance: URLs and links in the text, numbered
// citations ("[4]", or a progress file's "(Source 4)" and "(Source 2,
// Source 3)") whose sources-list entry has a URL, and every URL of the
// sources list itself. A quotation on a line is attributed to the URLs
// cited on that line.
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
			for _, num := range sourceNums(ref) {
				if s := d.Source(refNumber(num)); s != nil && s.URL != "" {
					add("Source "+num, s.URL, i+1)
				}
			}
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

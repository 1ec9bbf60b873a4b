package phases

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/rgit-dev/rgit/agents/local"
	"github.com/rgit-dev/rgit/phases/report"
)

// citations checks every citation of the report. A numbered citation must
// name an entry of the sources list that some research pass recorded in a
// progress file, and each quotation on its line must be in such a file; a
// URL must have been recorded; a local citation `path:start-end` must
// resolve in the corpus with its fenced quotation equal to the file's
// lines (the local researcher's own check). Local files are read at the
// commit the session recorded (verifycorpus.go), not from the disk.
func (a *audit) citations(problems *[]string, root string) []Check {
	cites := Check{Name: "citations", What: "point at a recorded source or corpus file"}
	quotes := Check{Name: "quotations", What: "found verbatim in their source"}
	lines := strings.Split(string(a.report), "\n")
	line := func(n int) string {
		if n >= 1 && n <= len(lines) {
			return lines[n-1]
		}
		return ""
	}
	fail := func(c report.Citation, format string, args ...any) {
		*problems = append(*problems, fmt.Sprintf("citation %s (line %d): %s", c.Text, c.Line, fmt.Sprintf(format, args...)))
	}
	seen := map[string]bool{} // a quotation is checked once per line
	var locals []report.Citation
	for _, c := range report.Parse(a.report).Citations {
		switch c.Kind {
		case report.Local:
			locals = append(locals, c)
			continue
		case report.URL, report.Link:
			a.urlCitation(c, c.URL, line(c.Line), seen, &cites, &quotes, fail)
			continue
		}
		if c.Source != nil && c.Source.URL != "" {
			a.urlCitation(c, c.Source.URL, line(c.Line), seen, &cites, &quotes, fail)
			continue
		}
		cites.Total++
		if c.Source == nil {
			fail(c, "no entry [%d] in the sources list", c.Number)
			continue
		}
		recs := a.recordsWith(c.Source.Key())
		if len(recs) == 0 {
			fail(c, "source %q was never recorded by the research", oneLine(c.Source.Key()))
			continue
		}
		cites.Passed++
		for _, q := range quotations(line(c.Line)) {
			key := fmt.Sprint(c.Line, q)
			if seen[key] {
				continue
			}
			seen[key] = true
			quotes.Total++
			if containsAny(recs, q) {
				quotes.Passed++
			} else {
				fail(c, "quotation %q is not in the recorded source", oneLine(q))
			}
		}
	}
	if len(locals) > 0 {
		a.localCitations(locals, line, root, &cites, &quotes, problems)
	}
	return []Check{cites, quotes}
}

// localCitations checks `path:start-end` citations with the local
// researcher's verifier, over the session's corpus (the repository when
// it named none).
func (a *audit) localCitations(locals []report.Citation, line func(int) string, root string, cites, quotes *Check, problems *[]string) {
	roots := a.state.Corpus
	if len(roots) == 0 {
		roots = []string{root}
	}
	roots, done := a.corpusAt(roots, root, locals)
	defer done()
	failed := map[string]local.CitationError{}
	for _, e := range local.VerifyCitations(a.report, roots) {
		failed[fmt.Sprint(e.Line, e.Citation)] = e
	}
	for _, c := range locals {
		cites.Total++
		quoted := strings.HasPrefix(strings.TrimLeft(line(c.Line+1), " "), "```")
		if quoted {
			quotes.Total++
		}
		e, bad := failed[fmt.Sprintf("%d%s:%d-%d", c.Line, c.Path, c.From, c.To)]
		switch {
		case !bad:
			cites.Passed++
			if quoted {
				quotes.Passed++
			}
		case strings.HasPrefix(e.Reason, "quoted text differs"):
			cites.Passed++
			*problems = append(*problems, fmt.Sprintf("citation %s (line %d): %s", c.Text, c.Line, e.Reason))
		default:
			*problems = append(*problems, fmt.Sprintf("citation %s (line %d): %s", c.Text, c.Line, e.Reason))
		}
	}
}

// recordsWith returns every recorded progress file version that mentions key.
func (a *audit) recordsWith(key string) []string {
	var out []string
	if strings.TrimSpace(key) == "" {
		return nil
	}
	for _, versions := range a.records {
		for _, v := range versions {
			if strings.Contains(v, key) {
				out = append(out, v)
			}
		}
	}
	return out
}

// quotations lists the quoted passages of a report line: quotations of
// at least eight characters, "..." or “...”, on one line. It finds what
// the regexp "([^"\n]{8,})"|“([^”\n]{8,})” finds, without the regexp
// engine: a gate runs it on each of a report's hundreds of cited lines.
func quotations(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		open, closing := `"`, `"`
		if !strings.HasPrefix(s[i:], open) {
			if open, closing = "“", "”"; !strings.HasPrefix(s[i:], open) {
				continue
			}
		}
		body := s[i+len(open):]
		end := strings.Index(body, closing)
		if end >= 0 && strings.IndexByte(body[:end], '\n') >= 0 {
			end = -1
		}
		if end < 0 || utf8.RuneCountInString(body[:end]) < 8 {
			continue // too short, or unclosed on its line: the closing quote may open one
		}
		out = append(out, body[:end])
		i += len(open) + end + len(closing) - 1
	}
	return out
}

func containsAny(texts []string, s string) bool {
	norm := collapseSpace(s)
	for _, t := range texts {
		if strings.Contains(collapseSpace(t), norm) {
			return true
		}
	}
	return false
}

// collapseSpace trims s and turns each run of white space in it into one
// space, so a quotation matches its page however either is wrapped.
func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

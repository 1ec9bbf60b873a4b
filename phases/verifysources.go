package phases

import (
	"fmt"
	"path"

	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/phases/report"
)

// treeSources reads the source records of the session's tree at head: a
// citation is backed by what the branch holds, so a commit that removes a
// record unbacks its citations.
func treeSources(s Store, lay layout.Layout, head string) *sourceSet {
	set := newSourceSet()
	files, err := s.ListFiles(head, lay.TreeFile(layout.SourcesDir))
	if err != nil {
		return set
	}
	for _, f := range files {
		if path.Ext(f) != ".md" {
			continue
		}
		data, err := s.ReadFile(head, f)
		if err != nil {
			continue
		}
		if src, ok := parseSourceRecord(data); ok {
			set.byURL[normURL(src.URL)] = src
		}
	}
	return set
}

// urlCitation checks a citation of a URL against the source records: one
// must exist, and each quotation on the citation's line must be in its
// text.
func (a *audit) urlCitation(c report.Citation, u, line string, seen map[string]bool, cites, quotes *Check,
	fail func(report.Citation, string, ...any)) {
	cites.Total++
	src, ok := a.sources.lookup(u)
	if !ok {
		fail(c, "%s was never fetched (no record under %s/)", u, layout.SourcesDir)
		return
	}
	cites.Passed++
	for _, q := range quotations(line) {
		key := fmt.Sprint(c.Line, q)
		if seen[key] {
			continue
		}
		seen[key] = true
		quotes.Total++
		if a.sources.quotes(normURL(src.URL), q) {
			quotes.Passed++
		} else {
			fail(c, "quotation %q is not in the page fetched from %s", oneLine(q), u)
		}
	}
}

package phases

import (
	"bytes"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/phases/report"
)

// A source record is one page an agent read, as rgit stores it under
// sources/ in the session tree (one file per URL, named by
// agents.SourceFileName): a small header, a blank line, then the text the
// agent saw. The record is written by rgit from the backend's report of
// the agent's own tool calls, never from what the agent wrote, and the
// citation gate and `rgit verify` check URL citations against it.
const (
	recordURL   = "URL: "
	recordTime  = "Fetched: "
	recordTitle = "Title: "
	recordTool  = "Tool: "
)

// sourceRecord renders s as its record file. The text is redacted and
// cleaned like any agent output: it is untrusted and it is committed.
func sourceRecord(s agents.Source) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s%s\n%s%s\n%s%s\n%s%s\n\n", recordURL, oneLineLong(s.URL), recordTime, s.Time.UTC().Format(time.RFC3339),
		recordTitle, oneLine(CleanLine(s.Title)), recordTool, oneLine(s.Tool))
	b.WriteString(strings.TrimRight(CleanText(Redact(s.Text)), "\n"))
	b.WriteByte('\n')
	return b.Bytes()
}

// parseSourceRecord reads a record back; ok is false for a file that is
// not one (no URL line first).
func parseSourceRecord(data []byte) (s agents.Source, ok bool) {
	head, text, _ := strings.Cut(string(data), "\n\n")
	for i, line := range strings.Split(head, "\n") {
		switch {
		case strings.HasPrefix(line, recordURL):
			s.URL = strings.TrimPrefix(line, recordURL)
		case i == 0:
			return s, false
		case strings.HasPrefix(line, recordTime):
			s.Time, _ = time.Parse(time.RFC3339, strings.TrimPrefix(line, recordTime))
		case strings.HasPrefix(line, recordTitle):
			s.Title = strings.TrimPrefix(line, recordTitle)
		case strings.HasPrefix(line, recordTool):
			s.Tool = strings.TrimPrefix(line, recordTool)
		}
	}
	s.Text = strings.TrimSuffix(text, "\n")
	return s, s.URL != ""
}

// sourceSet is the sources a check may count: the session's records and
// what the current call's attempts read. Keys are normalised URLs.
type sourceSet struct {
	byURL map[string]agents.Source
	fresh []string // keys added by calls, not read from records, in order
	// parsed is the last document checked against the set, parsed, and
	// its citations: a final phase's structural gate, its citation gate
	// and its tally check the same report, and parsing a whole report is
	// most of what any of them costs.
	parsed struct {
		doc   string
		d     *report.Document
		cites []urlCite
	}
	// flat is each quoted page's text with its white space collapsed, as
	// a quotation is compared with it: a report quotes the same pages
	// over and over, and a page can be long.
	flat map[string]string
}

// document is report.Parse(doc), remembered for the next check of the same doc.
func (s *sourceSet) document(doc []byte) *report.Document {
	if s.parsed.d == nil || s.parsed.doc != string(doc) {
		s.parsed.doc, s.parsed.d, s.parsed.cites = string(doc), report.Parse(doc), nil
	}
	return s.parsed.d
}

// citesOf is urlCites of doc, remembered for the next check of the same doc.
func (s *sourceSet) citesOf(doc []byte) []urlCite {
	d := s.document(doc)
	if s.parsed.cites == nil {
		s.parsed.cites = urlCites(d, doc)
	}
	return s.parsed.cites
}

// quotes says whether the page recorded under key contains quotation q,
// white space aside.
func (s *sourceSet) quotes(key, q string) bool {
	flat, ok := s.flat[key]
	if !ok {
		if s.flat == nil {
			s.flat = map[string]string{}
		}
		flat = collapseSpace(s.byURL[key].Text)
		s.flat[key] = flat
	}
	return strings.Contains(flat, collapseSpace(q))
}

func newSourceSet() *sourceSet { return &sourceSet{byURL: map[string]agents.Source{}} }

// add records sources an agent read; a later read of a URL replaces an
// earlier one unless it brings no text. Sources without a time get now.
func (s *sourceSet) add(srcs []agents.Source, now time.Time) {
	for _, src := range srcs {
		key := normURL(src.URL)
		if key == "" {
			continue
		}
		if src.Time.IsZero() {
			src.Time = now
		}
		old, seen := s.byURL[key]
		if seen && src.Text == "" && old.Text != "" {
			continue
		}
		if !slices.Contains(s.fresh, key) {
			s.fresh = append(s.fresh, key)
		}
		s.byURL[key] = src
		delete(s.flat, key)
	}
}

// lookup finds the source of a cited URL.
func (s *sourceSet) lookup(u string) (agents.Source, bool) {
	src, ok := s.byURL[normURL(u)]
	return src, ok
}

// readSourcesIn reads the records in dir. Files that are not records (an
// agent's own notes) are ignored.
func readSourcesIn(dir string) *sourceSet {
	set := newSourceSet()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		if src, ok := parseSourceRecord(data); ok {
			set.byURL[normURL(src.URL)] = src
		}
	}
	return set
}

// knownSources is a copy of the session's source records for one call to
// add to: read from the workspace once per run, then kept by keepSources.
// Calls in flight each hold their own copy.
func (r *run) knownSources() *sourceSet {
	if r.sources == nil {
		r.sources = readSourcesIn(r.lay.File(layout.SourcesDir)).byURL
	}
	set := newSourceSet()
	maps.Copy(set.byURL, r.sources)
	return set
}

// keepSources adds the records writeSources just wrote for a call.
func (r *run) keepSources(set *sourceSet) {
	if r.sources == nil {
		return // not read yet: the first knownSources reads them from disk
	}
	for _, key := range set.fresh {
		// As the record on disk has it (truncated text), as a reread would.
		if src, ok := parseSourceRecord(sourceRecord(set.byURL[key])); ok {
			r.sources[key] = src
		}
	}
}

// recordSources writes a record under sources/ for each page a call read,
// so the commit that records the call's result carries them: it names the
// files to that commit (layout.Sealed), keeps the records for the run's
// later calls (keepSources) and notes them in the commit body.
func (r *run) recordSources(set *sourceSet, note string) error {
	wrote, err := writeSourcesIn(r.lay.File(layout.SourcesDir), set)
	r.wrote = append(r.wrote, wrote...)
	if err != nil || len(wrote) == 0 {
		return err
	}
	r.keepSources(set)
	r.events = append(r.events, fmt.Sprintf("Sources recorded: %d (%s/)%s", len(wrote), layout.SourcesDir, note))
	return nil
}

// writeSourcesIn writes the set's fresh records into dir and returns the
// files it wrote.
func writeSourcesIn(dir string, set *sourceSet) ([]string, error) {
	if set == nil {
		return nil, nil
	}
	var wrote []string
	for _, key := range set.fresh {
		src := set.byURL[key]
		path := filepath.Join(dir, agents.SourceFileName(src.URL))
		wrote = append(wrote, path) // before the write: a half-written record is named too
		if err := writeFile(path, sourceRecord(src)); err != nil {
			return wrote, fmt.Errorf("write source record: %w", err)
		}
	}
	return wrote, nil
}

// normURL compares URLs as a reader would: scheme and host in lower case,
// no fragment, no trailing slash.
func normURL(raw string) string {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return strings.TrimRight(raw, "/")
	}
	u.Scheme, u.Host, u.Fragment = strings.ToLower(u.Scheme), strings.ToLower(u.Host), ""
	return strings.TrimRight(u.String(), "/")
}

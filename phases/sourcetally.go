package phases

import (
	"fmt"
	"os"
	"strings"
)

// CitationTally is how many of the report's URL citations its sources
// back, as state.json's "citations" records it after synthesis and
// revision: `rgit status` and the end summary show it.
type CitationTally struct {
	Verified   int      `json:"verified"`
	Total      int      `json:"total"`
	Unverified []string `json:"unverified,omitempty"` // "[4] https://...: was never fetched"
}

// String is the tally as status and the summary show it.
func (t *CitationTally) String() string {
	if t == nil {
		return ""
	}
	return fmt.Sprintf("citations verified %d/%d", t.Verified, t.Total)
}

// tallyCitations settles the report's URL citations once a final phase
// has written it: the call's reads become records under sources/, each
// citation they do not back is marked unverified in the report, and the
// tally goes into state.json (and, when some are unverified, into the
// methodology and the commit body).
func (r *run) tallyCitations(path string, seen *sourceSet) error {
	if err := r.recordSources(seen, ""); err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read report: %w", err)
	}
	problems, passed, total := checkCites(data, seen)
	if total == 0 {
		r.state.Citations = nil // no URL citation: nothing to show
		return nil
	}
	t := &CitationTally{Verified: passed, Total: total}
	for _, p := range problems {
		t.Unverified = append(t.Unverified, p.String())
	}
	r.state.Citations = t
	if len(problems) == 0 {
		return nil
	}
	r.events = append(r.events, fmt.Sprintf("Unverified citations: %d of %d, marked in the report: %s", total-passed, total, oneLineLong(strings.Join(t.Unverified, "; "))))
	return writeFile(path, markUnverified(data, problems))
}

// citationsLine is the methodology's line on citations the sources do not
// back; "" when every one is backed.
func (s *State) citationsLine() string {
	t := s.Citations
	if t == nil || t.Verified == t.Total {
		return ""
	}
	return fmt.Sprintf("- Unverified citations: %d of %d URL citations are not backed by a page the agents fetched (or quote it wrongly); each is marked%s.\n",
		t.Total-t.Verified, t.Total, unverifiedMark)
}

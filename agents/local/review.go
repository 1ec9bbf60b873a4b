package local

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// verdict is the review phases' output contract.
type verdict struct {
	Verdict string   `json:"verdict"`
	Summary string   `json:"summary"`
	Gaps    []string `json:"gaps"`
}

func (v verdict) String() string {
	if v.Gaps == nil {
		v.Gaps = []string{}
	}
	b, _ := json.Marshal(v) // a struct of strings always marshals
	return string(b) + "\n"
}

func decide(summary string, gaps []string) verdict {
	if len(gaps) == 0 {
		return verdict{Verdict: "accept", Summary: summary}
	}
	return verdict{Verdict: "reject", Summary: summary, Gaps: gaps}
}

// reviewed reads the file under review.
func (r *run) reviewed() (string, error) {
	p := r.b.ReviewPath
	if p == "" {
		return "", fmt.Errorf("review: no file to review (Brief.ReviewPath is empty)")
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("read file under review: %w", err)
	}
	return string(data), nil
}

// review accepts a topic when every citation verifies, every criterion is
// covered by a quotation (coverage at least coverEnough), and the
// quotations come from two files or more where the corpus has two.
func (r *run) review() (string, error) {
	text, err := r.reviewed()
	if err != nil {
		return "", err
	}
	var gaps []string
	for _, e := range VerifyCitations([]byte(text), r.roots()) {
		gaps = append(gaps, "citation "+e.Error())
	}
	fs := r.findingsOf(text)
	if len(fs) == 0 {
		gaps = append(gaps, "no verified quotation: research "+oneLine(r.b.Topic)+" again with broader terms")
	}
	gaps = append(gaps, r.weakCriteria(fs)...)
	files := distinctFiles(fs)
	if files < 2 && len(fs) > 0 && r.textFiles() >= 2 {
		gaps = append(gaps, "all quotations come from one file ("+fs[0].Path+"): find corroboration in another file")
	}
	summary := fmt.Sprintf("%d verified quotations from %d files; %d of %d criteria covered.",
		len(fs), files, len(r.b.Criteria)-len(r.weakCriteria(fs)), len(r.b.Criteria))
	return decide(summary, gaps).String(), nil
}

// textFiles counts the corpus files that have passages.
func (r *run) textFiles() int {
	n := 0
	for _, f := range r.ix.Files {
		if f.Count > 0 {
			n++
		}
	}
	return n
}

// finalReview checks the report: its sections, and every citation.
func (r *run) finalReview() (string, error) {
	text, err := r.reviewed()
	if err != nil {
		return "", err
	}
	var gaps []string
	for _, s := range []string{"## Executive Summary", "## Findings", "## Sources"} {
		if !hasHeading(text, s) {
			gaps = append(gaps, "the report has no "+strings.TrimPrefix(s, "## ")+" section")
		}
	}
	errs := VerifyCitations([]byte(text), r.roots())
	for _, e := range errs {
		gaps = append(gaps, "citation "+e.Error())
	}
	n := len(parseCitations(text))
	summary := fmt.Sprintf("%d of %d citations verify against the corpus.", n-len(errs), n)
	return decide(summary, gaps).String(), nil
}

func hasHeading(text, h string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == h {
			return true
		}
	}
	return false
}

package mock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/rgit-dev/rgit/agents"
)

// verdict is the review contract's JSON object.
type verdict struct {
	Verdict         string   `json:"verdict"`
	Summary         string   `json:"summary"`
	Gaps            []string `json:"gaps"`
	ShouldContinue  bool     `json:"shouldContinue"`
	NextSearchTopic string   `json:"nextSearchTopic,omitempty"`
}

// reviewTopic judges a progress file. It rejects a file that breaks the
// contract, and otherwise rejects about one topic in four on its first
// review (Brief.Gaps empty), so the re-research that answers the gaps is
// then accepted and the loop always moves on.
func reviewTopic(b agents.Brief) output {
	lower := phrase(b.Topic)
	missing, read := checkFile(b.ReviewPath, "## Findings", "## Sources", "## Knowledge Gaps")
	if len(missing) > 0 {
		return render(verdict{Verdict: "reject", Summary: fmt.Sprintf("The research on %s does not follow the required format.", lower), Gaps: missing, ShouldContinue: true}, read)
	}
	r := seedFor(b.Question, b.Topic, "review")
	if len(b.Gaps) == 0 && r.intn(4) == 0 {
		var gaps []string
		for _, g := range r.perm(len(reviewGaps))[:1+r.intn(2)] {
			gaps = append(gaps, fmt.Sprintf(reviewGaps[g], lower))
		}
		return render(verdict{Verdict: "reject", Summary: fmt.Sprintf("The findings on %s are relevant but not yet well enough supported.", lower), Gaps: gaps, ShouldContinue: true,
			NextSearchTopic: fmt.Sprintf("primary sources on %s", lower)}, read)
	}
	summary := fmt.Sprintf("The findings on %s meet the acceptance criteria; each is cited and the knowledge gaps are stated.", lower)
	if len(b.Gaps) > 0 {
		summary = fmt.Sprintf("The revised findings on %s answer the previous review's gaps and meet the acceptance criteria.", lower)
	}
	return render(verdict{Verdict: "accept", Summary: summary, Gaps: []string{}}, read)
}

// reviewReport judges the synthesized report the same way: format first,
// then about one session in two rejected on its first final review.
func reviewReport(b agents.Brief) output {
	required := []string{"## Executive Summary", "## Findings", "## Sources"}
	if data, err := os.ReadFile(b.ReviewPath); err == nil && hasHeading(string(data), "## Areas of Strong Consensus") {
		required[1] = "## Key Findings" // a council report
	}
	missing, read := checkFile(b.ReviewPath, required...)
	if len(missing) > 0 {
		return render(verdict{Verdict: "reject", Summary: "The report does not follow the required structure.", Gaps: missing, ShouldContinue: true}, read)
	}
	r := seedFor(b.Question, "", "final-review")
	if len(b.Gaps) == 0 && r.intn(2) == 0 {
		var gaps []string
		for _, g := range r.perm(len(reportGaps))[:1+r.intn(2)] {
			gaps = append(gaps, reportGaps[g])
		}
		return render(verdict{Verdict: "reject", Summary: "The report is complete and well cited, but leaves the reader to infer how far its conclusions can be trusted.", Gaps: gaps, ShouldContinue: true}, read)
	}
	return render(verdict{Verdict: "accept", Summary: "The report covers every topic, its summary matches the findings, and its claims are cited.", Gaps: []string{}}, read)
}

// checkFile lists, as review gaps, the required headings path lacks; a
// path of "" is not checked. It also returns the bytes read.
func checkFile(path string, headings ...string) ([]string, int) {
	if path == "" {
		return nil, 0
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return []string{fmt.Sprintf("Write the file under review; it could not be read (%v)", err)}, 0
	}
	var missing []string
	for _, h := range headings {
		if !hasHeading(string(data), h) {
			missing = append(missing, fmt.Sprintf("Add the required section %q", h))
		}
	}
	return missing, len(data)
}

// hasHeading reports whether text has heading as a whole line.
func hasHeading(text, heading string) bool {
	for line := range strings.Lines(text) {
		if strings.TrimRight(line, " \t\r\n") == heading {
			return true
		}
	}
	return false
}

// render encodes v as both the file and the final message.
func render(v verdict, read int) output {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // a struct of strings always encodes
	}
	return output{body: buf.String(), text: strings.TrimSpace(buf.String()), read: read}
}

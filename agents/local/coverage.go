package local

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/rgit-dev/rgit/agents/local/index"
)

// coverage is the best share, over the quotations, of a criterion's term
// weight (idf) that one quotation contains; 1 for a criterion with nothing
// to search for. A term the corpus lacks counts with the highest weight, so
// a criterion about something absent is never covered.
func (r *run) coverage(crit string, fs []finding) float64 {
	q := query(part{crit, 1, false})
	for t := range q {
		if strings.HasPrefix(t, "=") { // declaration terms are not in the text
			delete(q, t)
		}
	}
	if len(q) == 0 {
		return 1
	}
	maxIDF := r.ix.MaxIDF()
	terms := slices.Sorted(maps.Keys(q)) // a fixed order keeps sums bit-identical
	total := 0.0
	weights := map[string]float64{}
	for _, t := range terms {
		w := r.ix.IDF(t)
		if w == 0 {
			w = maxIDF
		}
		weights[t] = w
		total += w
	}
	best := 0.0
	for _, f := range fs {
		have := findingTerms(f)
		got := 0.0
		for _, t := range terms {
			if have[t] {
				got += weights[t]
			}
		}
		best = max(best, got/total)
	}
	return best
}

// weakCriteria names the criteria no quotation covers.
func (r *run) weakCriteria(fs []finding) []string {
	var out []string
	for _, c := range r.b.Criteria {
		if cov := r.coverage(c, fs); cov < coverEnough {
			out = append(out, fmt.Sprintf("%s: the best quotation carries %.0f%% of its terms (%s)",
				oneLine(c), 100*cov, strings.Join(missingWords(c, fs), ", ")))
		}
	}
	return out
}

// missingWords are the criterion's words no quotation contains.
func missingWords(crit string, fs []finding) []string {
	have := map[string]bool{}
	for _, f := range fs {
		for _, l := range f.Lines {
			for _, t := range index.Terms(l) {
				have[t] = true
			}
		}
	}
	var out []string
	for _, w := range strings.Fields(crit) {
		for _, t := range index.Terms(w) {
			if !boilerplate[t] && !have[t] {
				out = append(out, "missing "+strings.Trim(w, ".,;:?!()`'\""))
				break
			}
		}
	}
	if len(out) == 0 {
		out = append(out, "terms spread over several quotations")
	}
	return out
}

// NoEvidence starts the error of a research call that found nothing in the
// corpus for its topic.
const NoEvidence = "no evidence found in the corpus"

// minEvidence is the share of the question's term weight that one
// quotation must hold for the corpus to count as having evidence: a
// passage that shares only a common word ("work" of "How do tides work?")
// is not evidence.
const minEvidence = 0.35

// evidence is the best share, over the quotations, of the content words
// of the question or of the topic's name (idf-weighted; a word the corpus
// lacks weighs twice the rarest word) that one quotation holds, with the
// question's words no quotation holds. A subtopic narrower than the
// question has evidence when its quotations hold its own name's words.
func (r *run) evidence(fs []finding) (float64, []string) {
	share, missing := r.evidenceFor(r.b.Question, fs)
	if r.b.Topic != "" {
		name, _, _ := strings.Cut(r.b.Topic, " in ") // not the path words of "X in dir/file"
		if s, _ := r.evidenceFor(name, fs); s > share {
			share = s
		}
	}
	return share, missing
}

// questionForm holds the words that give a question its form rather than
// its subject ("How do tides work?", "What happens when..."): a corpus
// need not contain them to hold evidence, and a small corpus lacking them
// would otherwise weigh them above the subject itself.
var questionForm = sync.OnceValue(func() map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields("work works working worked happen happens happened mean means meant explain explains describe describes exist exists") {
		for _, t := range index.Terms(w) {
			set[t] = true
		}
	}
	return set
})

func (r *run) evidenceFor(text string, fs []finding) (float64, []string) {
	q := index.Query{}.Add(text, 1)
	weights := map[string]float64{}
	for t := range q {
		if strings.HasPrefix(t, "=") || questionForm()[t] {
			continue
		}
		w := r.ix.IDF(t)
		if w == 0 {
			w = 2 * r.ix.MaxIDF()
		}
		weights[t] = w
	}
	terms := slices.Sorted(maps.Keys(weights)) // a fixed order keeps sums bit-identical
	total := 0.0
	for _, t := range terms {
		total += weights[t]
	}
	if total == 0 {
		return 0, nil
	}
	best := 0.0
	seen := map[string]bool{}
	for _, f := range fs {
		have := findingTerms(f)
		got := 0.0
		for _, t := range terms {
			if have[t] {
				got += weights[t]
				seen[t] = true
			}
		}
		best = max(best, got/total)
	}
	var missing []string
	for _, w := range strings.Fields(text) {
		w = strings.Trim(w, "?!.,;:()[]{}\"'`")
		for _, t := range index.Terms(w) {
			if weights[t] > 0 && !seen[t] {
				missing = append(missing, w)
				break
			}
		}
	}
	if len(missing) == 0 {
		missing = []string{"none, but they are spread over several passages"}
	}
	return best, missing
}

// findingTerms are the index terms of a quotation's lines and label.
func findingTerms(f finding) map[string]bool {
	have := map[string]bool{}
	for _, l := range f.Lines {
		for _, t := range index.Terms(l) {
			have[t] = true
		}
	}
	for _, t := range index.Terms(f.Label) {
		have[t] = true
	}
	return have
}

package local

import (
	"slices"
	"strings"

	"github.com/rgit-dev/rgit/agents/local/index"
)

// The executive summary opens with an extractive answer: the few sentences
// of the quotations' comments and prose that best state what the question
// asks, each cited by the lines it spans. Sentences are scored by the
// question's terms they contain, weighted by rarity and by how much of the
// best passages share them (focus), so a sentence that names the mechanism
// beats one that repeats a common word.

// Answer tuning.
const (
	answerSentences = 4   // at most this many sentences
	minSentence     = 4   // words: shorter fragments are headings, not statements
	maxSentence     = 60  // words: longer runs are lists or tables
	answerShare     = 0.4 // a sentence's score must reach this share of the best
	definitionBoost = 1.5 // a sentence whose subject is a question term
	maxSubject      = 8   // words before the verb of a definition
)

// definitionVerbs join a subject to what is said of it.
var definitionVerbs = []string{" is ", " are ", " means ", " refers to ", " denotes "}

// subject returns the words before a sentence's first linking verb ("is",
// "are", "means") when they are few enough to be its subject.
func subject(text string) (string, bool) {
	end := -1
	for _, v := range definitionVerbs {
		if i := strings.Index(text, v); i > 0 && (end < 0 || i < end) {
			end = i
		}
	}
	if end < 0 || len(strings.Fields(text[:end])) > maxSubject {
		return "", false
	}
	return text[:end], true
}

// sentence is one statement of a quotation, with the lines it spans.
type sentence struct {
	text       string
	path, abs  string
	start, end int // file lines, 1-based inclusive
	score      float64
}

// proseLine returns the text of a line that is a comment in code or any
// line of a document, without comment markers; ok is false for code.
func proseLine(l string, code bool) (string, bool) {
	t := strings.TrimSpace(l)
	if !code {
		return t, true
	}
	for _, p := range []string{"///", "//", "/**", "/*", "*/", "* ", "#"} {
		if strings.HasPrefix(t, p) {
			t = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(t, p), "*/"))
			return t, true
		}
	}
	if t == "*" {
		return "", true
	}
	return "", false
}

// sentences splits a finding's comment or prose lines into sentences.
func sentences(f finding) []sentence {
	code := index.KindOf(f.Path) == index.Code
	var out []sentence
	var cur []string
	curStart := -1
	flush := func(end int) {
		if len(cur) > 0 {
			out = append(out, sentence{text: strings.Join(cur, " "), path: f.Path, abs: f.Abs, start: curStart, end: end})
		}
		cur, curStart = nil, -1
	}
	for i, l := range f.Lines {
		n := f.Start + i
		t, ok := proseLine(l, code)
		if !ok || t == "" || strings.HasPrefix(t, "\t") {
			flush(n - 1)
			continue
		}
		for t != "" {
			if curStart < 0 {
				curStart = n
			}
			k := sentenceEnd(t)
			if k < 0 {
				cur = append(cur, t)
				break
			}
			cur = append(cur, t[:k+1])
			flush(n)
			t = strings.TrimSpace(t[k+1:])
		}
	}
	flush(f.End)
	return out
}

// sentenceEnd is the index of the period, question or exclamation mark
// that ends a sentence in t (followed by a space or the line's end), or -1.
func sentenceEnd(t string) int {
	for k := 0; k < len(t); k++ {
		c := t[k]
		if c != '.' && c != '?' && c != '!' {
			continue
		}
		if k+1 == len(t) || t[k+1] == ' ' {
			if c == '.' && k >= 2 && (t[k-2:k] == "e." || t[k-2:k] == "g." || t[k-2:k] == "i.") {
				continue // e.g., i.e.
			}
			return k
		}
	}
	return -1
}

// answer picks the sentences of fs that best state the answer to qq.
func (r *run) answer(fs []finding, qq index.Query) []sentence {
	var cands []sentence
	seen := map[string]bool{}
	for _, f := range fs {
		w := index.ClassWeight(qq, f.Path)
		// The passage declares what the question names (sync.Once's Do):
		// its comment is the authority on it.
		for _, d := range declTerms(f) {
			if qq[d] > 0 {
				w *= 1.5
				break
			}
		}
		first := len(cands)
		for _, s := range sentences(f) {
			words := len(strings.Fields(s.text))
			key := s.path + "\x00" + s.text
			if words < minSentence || words > maxSentence || seen[key] || !strings.ContainsAny(s.text[len(s.text)-1:], ".?!:") {
				continue
			}
			seen[key] = true
			got := map[string]bool{}
			for _, t := range index.Terms(s.text) {
				if qq[t] > 0 && !got[t] {
					got[t] = true
					s.score += qq[t] * r.ix.IDF(t)
				}
			}
			// Two question terms in one sentence say more than one term
			// twice as rare: reward sentences that hold several.
			s.score *= w * (1 + 0.25*float64(len(got)-1))
			// A sentence whose subject is what the question asks about
			// ("The happens before relation is defined as ...", "Once is
			// an object that ...") states it; one that names it in passing
			// does not.
			if subj, ok := subject(s.text); ok {
				for _, t := range index.Terms(subj) {
					if got[t] {
						s.score *= definitionBoost
						break
					}
				}
			}
			if s.score > 0 {
				cands = append(cands, s)
			}
		}
		// A sentence inside an explanation (a comment or paragraph of
		// several matching sentences) is worth more than a lone remark.
		mine := cands[first:]
		bonus := make([]float64, len(mine))
		for i, a := range mine {
			n := 0
			for j, b := range mine {
				if i != j && b.start-a.end <= 8 && a.start-b.end <= 8 {
					n++
				}
			}
			bonus[i] = 1 + 0.15*float64(min(n, 4))
		}
		for i := range mine {
			mine[i].score *= bonus[i]
		}
	}
	slices.SortStableFunc(cands, func(a, b sentence) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return strings.Compare(a.path+a.text, b.path+b.text)
	})
	var out []sentence
	perFile := map[string]int{}
	for _, s := range cands {
		if len(out) >= answerSentences || s.score < cands[0].score*answerShare {
			break
		}
		if perFile[s.path] >= 3 || slices.ContainsFunc(out, func(o sentence) bool {
			return o.path == s.path && o.start <= s.end && s.start <= o.end
		}) {
			continue
		}
		perFile[s.path]++
		out = append(out, s)
	}
	// Read in the order of the source: a mechanism's sentences build on
	// each other where they come from one place.
	slices.SortStableFunc(out, func(a, b sentence) int {
		if a.path != b.path {
			return 0
		}
		return a.start - b.start
	})
	return out
}

package local

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/rgit-dev/rgit/agents/local/index"
)

// topic is a proposed plan or subtopic entry.
type topic struct {
	Name, Description string
	Criteria          []string
}

// plan writes research_plan.md: the question's own key phrase first, then
// the identifiers and headings of the best-matching passages, at most
// Breadth depth-0 topics, each with criteria naming the terms to cover.
func (r *run) plan() string {
	breadth := max(1, r.b.Breadth)
	q := index.Query{}.Add(r.b.Question, 1)
	words := r.keyWords(r.b.Question, q)
	topics := []topic{{
		Name:        sanitizeName(questionPhrase(r.b.Question)),
		Description: "The question itself, answered from the corpus: " + oneLine(r.b.Question),
		Criteria:    criteriaFor(words, 3),
	}}
	taken := map[string]bool{strings.ToLower(topics[0].Name): true}
	for _, h := range r.ix.Search(q, 40, nil) {
		if len(topics) >= breadth {
			break
		}
		if t, ok := r.passageTopic(h, q, taken); ok {
			topics = append(topics, t)
		}
	}
	return renderPlan(r.b.Question, breadth, r.b.Depth, topics)
}

// passageTopic proposes a topic named after a passage's label and file.
func (r *run) passageTopic(h index.Hit, q index.Query, taken map[string]bool) (topic, bool) {
	f, p := r.ix.Passage(h.Doc)
	label := p.Label
	if label == "" {
		return topic{}, false
	}
	name := r.topicName(f, p)
	if taken[strings.ToLower(name)] {
		name = r.qualified(f, name)
	}
	if taken[strings.ToLower(name)] {
		return topic{}, false
	}
	taken[strings.ToLower(name)] = true
	fd, ok := r.makeFinding(h, q)
	if !ok {
		return topic{}, false
	}
	crit := []string{"Quotes the source of " + label}
	crit = append(crit, criteriaFor(fd.Words, 2)...)
	return topic{
		Name:        name,
		Description: fmt.Sprintf("What %s in %s shows about the question", label, r.ix.CitePath(f)),
		Criteria:    dedupe(crit),
	}, true
}

// topicName names a topic after a passage: its label (the declared
// identifier or the heading), or the short heading-like comment inside it
// ("// Mutex fairness." followed by "//") when that is not the label's own
// doc comment. Path words never name a topic; a man page's generic section
// headings (DESCRIPTION, NOTES) are qualified by the page's name, and a
// label two files declare by the package that declares it.
func (r *run) topicName(f *index.File, p index.Passage) string {
	title := p.Label
	if all := r.lines(r.ix.AbsPath(f)); all != nil && p.End <= len(all) {
		lines := all[p.Start-1 : p.End]
		for i := 0; i+1 < len(lines); i++ {
			c, ok := strings.CutPrefix(strings.TrimSpace(lines[i]), "//")
			next := strings.TrimSpace(lines[i+1])
			c = strings.TrimSpace(c)
			words := strings.Fields(c)
			last := p.Label[strings.LastIndex(p.Label, ".")+1:]
			if ok && next == "//" && len(words) >= 1 && len(words) <= 5 && strings.HasSuffix(c, ".") &&
				(last == "" || words[0] != last) {
				title = strings.TrimSuffix(c, ".")
				break
			}
		}
	}
	if title == strings.ToUpper(title) && index.KindOf(f.Rel) != index.Code {
		page := path.Base(f.Rel)
		page = page[:strings.IndexByte(page+".", '.')]
		title = page + " " + strings.ToLower(title)
	}
	return sanitizeName(title)
}

// qualified is name with the package (directory) that declares it, for
// a topic whose name another topic has.
func (r *run) qualified(f *index.File, name string) string {
	return sanitizeName(name + " of " + path.Base(path.Dir(r.ix.CitePath(f))))
}

// keyWords returns the question's content words that the corpus knows,
// rarest first: the terms a good answer must cover.
func (r *run) keyWords(text string, q index.Query) []string {
	var words []string
	seen := map[string]bool{}
	for _, w := range strings.Fields(text) {
		w = strings.Trim(w, "?!.,;:()[]{}\"'`")
		terms := index.Terms(w)
		if w == "" || len(terms) == 0 || seen[strings.ToLower(w)] {
			continue
		}
		known := false
		for _, t := range terms {
			known = known || r.ix.DF(t) > 0
		}
		if known {
			seen[strings.ToLower(w)] = true
			words = append(words, w)
		}
	}
	// Rank by how much of the best-matching passages a word explains: its
	// weight times the share of the top passages that contain it. A word
	// the top passages never use ("avoid") is a poor criterion.
	focus := r.focus(q)
	rank := map[string]float64{}
	for _, w := range words {
		for _, t := range index.Terms(w) {
			rank[w] = max(rank[w], focus[t]*r.ix.IDF(t))
		}
	}
	slices.SortStableFunc(words, func(a, b string) int {
		switch {
		case rank[a] > rank[b]:
			return -1
		case rank[a] < rank[b]:
			return 1
		}
		return 0
	})
	return words
}

// focus reweights a query by how many of its ten best passages contain
// each term (from 0.1 for none to 1.1 for all). BM25 alone overrates a rare
// word that happens to be in the question but not in the answer.
func (r *run) focus(q index.Query) index.Query {
	var texts []map[string]bool
	for _, h := range r.ix.Search(q, 10, nil) {
		f, p := r.ix.Passage(h.Doc)
		all := r.lines(r.ix.AbsPath(f))
		if all == nil || p.End > len(all) {
			continue
		}
		have := map[string]bool{}
		for _, l := range all[p.Start-1 : p.End] {
			for _, t := range index.Terms(l) {
				have[t] = true
			}
		}
		if index.KindOf(f.Rel) == index.Code {
			for _, d := range index.DeclTerms(p.Label, f.Rel) {
				have[d] = true
			}
		}
		texts = append(texts, have)
	}
	out := index.Query{}
	for t, w := range q {
		n := 0
		for _, have := range texts {
			if have[t] {
				n++
			}
		}
		out[t] = w * (0.1 + float64(n)/10)
	}
	return out
}

// criteriaFor turns up to n words into acceptance criteria.
func criteriaFor(words []string, n int) []string {
	var out []string
	for _, w := range words[:min(n, len(words))] {
		out = append(out, "Quotes evidence on "+w)
	}
	if len(out) == 0 {
		out = append(out, "Quotes at least one relevant passage")
	}
	return out
}

// questionPhrase shortens a question to a topic name: the question without
// its leading question word and final punctuation.
func questionPhrase(q string) string {
	q = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(q), "?!."))
	words := strings.Fields(q)
	if len(words) > 12 {
		words = words[:12]
	}
	if len(words) == 0 {
		return "Overview"
	}
	return strings.Join(words, " ")
}

// sanitizeName keeps a topic name inside what the plan format can carry:
// one line, no parentheses (the "(Depth: N)" suffix), no ": " (the
// Subtopics "Name: description" form), no Markdown emphasis.
func sanitizeName(s string) string {
	s = oneLine(s)
	s = strings.NewReplacer("(", "", ")", "", ": ", " - ", "`", "", "*", "", "#", "", "[", "", "]", "").Replace(s)
	s = strings.TrimRight(strings.TrimSpace(s), ":")
	if s == "" {
		return "Topic"
	}
	return s
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func dedupe(xs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range xs {
		if !seen[strings.ToLower(x)] {
			seen[strings.ToLower(x)] = true
			out = append(out, x)
		}
	}
	return out
}

// renderPlan writes the research_plan.md format.
func renderPlan(question string, breadth, depth int, topics []topic) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "# Research Plan\n\n## Metadata\n- Topic: %s\n- Breadth: %d\n- Depth: %d\n\n## Topics\n",
		oneLine(question), breadth, depth)
	for _, t := range topics {
		fmt.Fprintf(&sb, "\n### %s (Depth: 0)\n- Status: Pending\n- Description: %s\n- Acceptance Criteria:\n",
			t.Name, oneLine(t.Description))
		for _, c := range t.Criteria {
			fmt.Fprintf(&sb, "  - %s\n", oneLine(c))
		}
	}
	fmt.Fprintf(&sb, "\n## Completion Status\n- Total Topics: %d\n- Complete: 0\n- In Progress: 0\n- Pending: %d\n",
		len(topics), len(topics))
	return sb.String()
}

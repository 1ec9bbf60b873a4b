package local

import (
	"fmt"
	"strings"

	"github.com/rgit-dev/rgit/agents/local/index"
)

// Research tuning.
const (
	mainFindings = 6   // quotations from the topic query
	perFile      = 2   // at most this many of them from one file
	coverEnough  = 0.5 // share of a criterion's term weight one quotation must carry
)

// boilerplate are the words of criteria, descriptions and gaps that say
// what to do rather than what about (the templates of plan, research and
// review, and the verbs of typical criteria); they are not searched for.
// The question and topic names keep every word.
var boilerplate = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range index.Terms("quotes quote evidence source least one relevant passage passages " +
		"explains explain covers cover shows show describes describe question answered corpus itself " +
		"topic criterion criteria gap gaps weak supported findings finding quotation quotations bears " +
		"best carries terms missing citation differs quoted corroboration verified broader spread several") {
		m[t] = true
	}
	return m
}()

// part is one text of a query with its weight; plain parts (the question,
// topic names) keep boilerplate words.
type part struct {
	text  string
	w     float64
	plain bool
}

// query builds a weighted query from parts.
func query(parts ...part) index.Query {
	q := index.Query{}
	for _, p := range parts {
		pq := index.Query{}.Add(p.text, p.w)
		for t, w := range pq {
			if p.plain || !boilerplate[t] {
				q[t] += w
			}
		}
	}
	return q
}

// topicQuery is what a research pass searches for: the topic, its criteria,
// the question, and, stressed, the last review's gaps.
func (r *run) topicQuery() index.Query {
	b := r.b
	return query(part{b.Topic, 1, true}, part{b.Description, 0.5, false}, part{strings.Join(b.Criteria, " "), 1, false},
		part{b.Question, 0.5, true}, part{strings.Join(b.Ancestors, " "), 0.25, true}, part{strings.Join(b.Gaps, " "), 1.5, false})
}

// research writes the topic's progress file. It fails when the corpus holds
// no evidence for the topic (see evidence): a progress file of whatever
// shares a common word would invent relevance.
func (r *run) research() (string, error) {
	q := r.topicQuery()
	var fs []finding
	count := map[string]int{}
	add := func(h index.Hit, fq index.Query, cap int) bool {
		fd, ok := r.makeFinding(h, fq)
		if !ok || count[fd.Path] >= cap || overlaps(fs, fd) {
			return false
		}
		count[fd.Path]++
		fs = append(fs, fd)
		return true
	}
	hits := r.ix.Search(q, 60, nil)
	for _, h := range hits {
		if len(fs) >= mainFindings {
			break
		}
		add(h, q, perFile)
	}
	// Each criterion and each gap gets its own search, so that a weak one is
	// answered by the passage that best covers it, not drowned by the topic.
	for _, c := range append(append([]string{}, r.b.Criteria...), r.b.Gaps...) {
		if r.coverage(c, fs) >= coverEnough {
			continue
		}
		cq := query(part{c, 1, false}, part{r.b.Topic, 0.2, true})
		for _, h := range r.ix.Search(cq, 10, nil) {
			if add(h, cq, perFile+1) {
				break
			}
		}
	}
	if distinctFiles(fs) < 2 && len(fs) > 0 {
		only := fs[0].Path
		for _, h := range r.ix.Search(q, 5, func(d int) bool { f, _ := r.ix.Passage(d); return r.ix.CitePath(f) != only }) {
			if add(h, q, perFile) {
				break
			}
		}
	}
	if share, missing := r.evidence(fs); share < minEvidence {
		return "", fmt.Errorf("%s for topic %q: no passage holds enough of the question's words "+
			"(the best holds %.0f%% of their weight; missing %s)", NoEvidence, oneLine(r.b.Topic), 100*share, strings.Join(missing, ", "))
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "# Progress: %s\n\n## Findings\n\n", oneLine(r.b.Topic))
	for _, f := range fs {
		writeQuote(&sb, "", "- ", f)
	}
	sb.WriteString("\n## Sources\n\n" + r.rootsNote() + "\n\n")
	for _, p := range filesOf(fs) {
		fmt.Fprintf(&sb, "- `%s`\n", p)
	}
	sb.WriteString("\n## Knowledge Gaps\n\n")
	gaps := r.weakCriteria(fs)
	if len(gaps) == 0 {
		sb.WriteString("Every acceptance criterion has a quotation that covers it.\n")
	}
	for _, g := range gaps {
		fmt.Fprintf(&sb, "- %s\n", g)
	}
	if r.b.CanSubdivide {
		sb.WriteString("\n## Subtopics\n\n")
		subs := r.subtopics(hits, q)
		if len(subs) == 0 {
			sb.WriteString("No passage suggests a subtopic that the plan does not already cover.\n")
		}
		for _, t := range subs {
			fmt.Fprintf(&sb, "- %s: %s\n", t.Name, oneLine(t.Description))
			for _, c := range t.Criteria {
				fmt.Fprintf(&sb, "  - %s\n", oneLine(c))
			}
		}
	}
	return sb.String(), nil
}

// overlaps reports whether fd quotes lines another finding already quotes.
func overlaps(fs []finding, fd finding) bool {
	for _, f := range fs {
		if f.Path == fd.Path && f.Start <= fd.End && fd.Start <= f.End {
			return true
		}
	}
	return false
}

// filesOf lists the cited files in order of first citation.
func filesOf(fs []finding) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range fs {
		if !seen[f.Path] {
			seen[f.Path] = true
			out = append(out, f.Path)
		}
	}
	return out
}

// subtopics proposes, from the labels of the retrieved passages, up to
// Breadth topics that no existing topic covers.
func (r *run) subtopics(hits []index.Hit, q index.Query) []topic {
	taken := map[string]bool{strings.ToLower(r.b.Topic): true}
	for _, e := range r.b.Existing {
		taken[strings.ToLower(e)] = true
	}
	covered := func(label string) bool {
		l := strings.ToLower(label)
		for e := range taken {
			if strings.Contains(e, l) {
				return true
			}
		}
		return false
	}
	var out []topic
	for _, h := range hits {
		if len(out) >= max(1, r.b.Breadth) {
			break
		}
		f, p := r.ix.Passage(h.Doc)
		if p.Label == "" || len(p.Label) < 3 || covered(p.Label) {
			continue
		}
		name := r.topicName(f, p)
		if taken[strings.ToLower(name)] {
			name = r.qualified(f, name)
		}
		if taken[strings.ToLower(name)] {
			continue
		}
		fd, ok := r.makeFinding(h, q)
		if !ok {
			continue
		}
		taken[strings.ToLower(name)] = true
		out = append(out, topic{
			Name:        name,
			Description: fmt.Sprintf("How %s in %s bears on %s", p.Label, r.ix.CitePath(f), oneLine(r.b.Topic)),
			Criteria:    dedupe(append([]string{"Quotes the source of " + p.Label}, criteriaFor(fd.Words, 2)...)),
		})
	}
	return out
}

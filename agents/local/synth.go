package local

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/local/index"
)

// Synthesis tuning.
const (
	summaryQuotes = 5 // executive summary: best quotations, one per file
	summaryLines  = 6 // lines of each summary excerpt
)

// topicFindings is one plan topic with its verified quotations.
type topicFindings struct {
	ref agents.TopicRef
	fs  []finding
}

// synthesize writes the report: an executive summary of the quotations
// most relevant to the question, findings by topic hierarchy, and numbered,
// deduplicated sources.
func (r *run) synthesize() string {
	qq := r.focus(query(part{r.b.Question, 1, true}))
	var topics []topicFindings
	for _, ref := range r.b.Topics {
		tf := topicFindings{ref: ref}
		if data, err := os.ReadFile(ref.Progress); ref.Progress != "" && err == nil {
			tf.fs = r.findingsOf(string(data))
		}
		topics = append(topics, tf)
	}
	if len(topics) == 0 { // no plan: answer the question directly
		tf := topicFindings{ref: agents.TopicRef{Name: questionPhrase(r.b.Question)}}
		for _, h := range r.ix.Search(qq, mainFindings, nil) {
			if fd, ok := r.makeFinding(h, qq); ok {
				tf.fs = append(tf.fs, fd)
			}
		}
		topics = append(topics, tf)
	}
	var all []finding
	for i := range topics {
		for j := range topics[i].fs {
			f := &topics[i].fs[j]
			f.Score = r.ix.ScoreText(qq, strings.Join(f.Lines, "\n")+"\n"+f.Label, declTerms(*f)...)
			all = append(all, *f)
		}
	}
	src := &sources{num: map[string]int{}}
	var sb strings.Builder
	fmt.Fprintf(&sb, "# %s\n\n## Executive Summary\n\n", oneLine(r.b.Question))
	summary := r.summaryQuotes(all, qq)
	fmt.Fprintf(&sb, "This report answers the question %q with %d verbatim quotations from %d files of the corpus, "+
		"gathered over %d research topics. Every statement below is a quotation with its citation; "+
		"the passages most relevant to the question come first.\n\n",
		oneLine(r.b.Question), len(all), distinctFiles(all), len(topics))
	if len(summary) == 0 {
		sb.WriteString("The corpus holds no passage relevant to the question.\n\n")
	}
	for i, f := range summary {
		writeQuote(&sb, "", fmt.Sprintf("%d. [%d] ", i+1, src.add(f)), f)
	}
	sb.WriteString("\n## Method\n\nrgit's offline researcher ranked passages of the corpus (paragraphs of prose, " +
		"declarations with their comments in code) by BM25 for each topic, its acceptance criteria and the " +
		"reviewers' gaps, and quoted the best lines verbatim. Nothing here is paraphrased: the labels name the " +
		"declaration or heading a quotation comes from, and \"mentions\" lists the words that matched.\n")
	sb.WriteString("\n## Findings\n")
	shown := []finding{}
	names := map[string]bool{}
	for _, t := range topics {
		names[t.ref.Name] = true
	}
	done := map[int]bool{}
	var walk func(parent string, depth int)
	walk = func(parent string, depth int) {
		for i, t := range topics {
			isRoot := t.ref.Parent == "" || !names[t.ref.Parent]
			if done[i] || (parent == "" && !isRoot) || (parent != "" && t.ref.Parent != parent) {
				continue
			}
			done[i] = true
			fmt.Fprintf(&sb, "\n%s %s\n\n", strings.Repeat("#", min(6, 3+depth)), oneLine(t.ref.Name))
			if t.ref.Exhausted {
				sb.WriteString("Research on this topic was exhausted (#RETRY_EXHAUSTED); its findings may be incomplete.\n\n")
			}
			n := 0
			for _, f := range t.fs {
				if overlaps(shown, f) {
					continue
				}
				shown = append(shown, f)
				writeQuote(&sb, "", fmt.Sprintf("- [%d] ", src.add(f)), f)
				n++
			}
			if n == 0 {
				sb.WriteString("No new quotation for this topic (see the topics above).\n")
			}
			walk(t.ref.Name, depth+1)
		}
	}
	walk("", 0)
	sb.WriteString("\n## Sources\n\n" + r.rootsNote() + "\n\n")
	for i, p := range src.order {
		fmt.Fprintf(&sb, "%d. `%s` (lines %s)\n", i+1, p, strings.Join(src.ranges[p], ", "))
	}
	return sb.String()
}

// summaryQuotes picks the most relevant excerpt of each of the top files:
// every quotation is cut to its best summaryLines lines, the excerpts are
// ranked by BM25 for the question, and weak ones (under a third of the
// best) are left to the findings.
func (r *run) summaryQuotes(all []finding, qq index.Query) []finding {
	var cands []finding
	for _, f := range all {
		s, e := window(f.Lines, r.lineScores(f.Lines, qq), summaryLines)
		if s >= e {
			continue
		}
		g := f
		g.Start, g.End, g.Lines = f.Start+s, f.Start+e-1, f.Lines[s:e]
		g.Words = matchedWords(g.Lines, qq)
		g.Score = r.ix.ScoreText(qq, strings.Join(g.Lines, "\n")+"\n"+g.Label, declTerms(g)...)
		cands = append(cands, g)
	}
	slices.SortStableFunc(cands, func(a, b finding) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return strings.Compare(a.cite(), b.cite())
	})
	// One excerpt per file first, so the first sources are the best files;
	// then a second excerpt of a file if room is left.
	var out []finding
	for pass := 1; pass <= 2; pass++ {
		for _, f := range cands {
			if len(out) >= summaryQuotes || f.Score <= 0 || f.Score < cands[0].Score/3 {
				break
			}
			n := 0
			for _, o := range out {
				if o.Path == f.Path {
					n++
				}
			}
			if n < pass && !overlaps(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// sources numbers cited files in order of first citation.
type sources struct {
	num    map[string]int
	order  []string
	ranges map[string][]string
}

func (s *sources) add(f finding) int {
	if s.ranges == nil {
		s.ranges = map[string][]string{}
	}
	n, ok := s.num[f.Path]
	if !ok {
		s.order = append(s.order, f.Path)
		n = len(s.order)
		s.num[f.Path] = n
	}
	rg := fmt.Sprintf("%d-%d", f.Start, f.End)
	if !slices.Contains(s.ranges[f.Path], rg) {
		s.ranges[f.Path] = append(s.ranges[f.Path], rg)
	}
	return n
}

// declTerms are the declaration terms of a quotation from code.
func declTerms(f finding) []string {
	if index.KindOf(f.Path) != index.Code {
		return nil
	}
	return index.DeclTerms(f.Label, f.Path)
}

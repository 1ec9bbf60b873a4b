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
	summaryQuotes = 5  // executive summary: best quotations, one per file
	summaryLines  = 6  // lines of each summary excerpt of a document
	implLines     = 20 // lines of each summary excerpt of code
	implQuotes    = 2  // code excerpts under Implementation
	answeredBoost = 2  // code of a declaration whose comment gave the answer
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
	// The question's own best passages join the pool only when they are
	// evidence: after every topic failed for want of it, a passage that
	// shares a common word with the question must not answer it.
	pool := slices.Clone(all)
	if direct := r.directFindings(qq); len(direct) > 0 {
		if share, _ := r.evidenceFor(r.b.Question, direct); share >= minEvidence {
			pool = append(pool, direct...)
		}
	}
	r.writeSummary(&sb, src, pool, qq)
	fmt.Fprintf(&sb, "This report answers the question with %d verbatim quotations from %d files of the corpus, "+
		"gathered over %d research topics; every statement is a quotation with its citation.\n",
		len(all), distinctFiles(all), len(topics))
	sb.WriteString("\n## Method\n\nrgit's offline researcher ranked passages of the corpus (sections of documents, " +
		"declarations with their comments in code) by BM25 for each topic, its acceptance criteria and the " +
		"reviewers' gaps, and quoted the best lines verbatim. Nothing here is paraphrased: the answer's sentences " +
		"are the corpus's own words (comment markers removed, lines joined), the labels name the declaration or " +
		"heading a quotation comes from, and \"mentions\" lists the words that matched.\n")
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

// writeSummary writes the executive summary's body: the extractive answer
// (the sentences that best state it, each cited), the code that implements
// it (when the answer is in code), and what else matters (the best excerpt
// of each further file).
func (r *run) writeSummary(sb *strings.Builder, src *sources, pool []finding, qq index.Query) {
	ans := r.answer(pool, qq)
	excerpts := r.excerpts(pool, qq, ans)
	if len(ans) == 0 && len(excerpts) == 0 {
		sb.WriteString("No evidence found in the corpus: no passage holds enough of the question's words to answer it.\n\n")
		return
	}
	if len(ans) > 0 {
		sb.WriteString("**Answer.** In the corpus's own words:\n\n")
		for _, s := range ans {
			n := src.add(finding{Path: s.path, Start: s.start, End: s.end})
			fmt.Fprintf(sb, "%s [%d] `%s:%d-%d`\n", mdText(s.text), n, s.path, s.start, s.end)
		}
		sb.WriteString("\n")
	}
	var code, other []finding
	for _, f := range excerpts {
		if index.KindOf(f.Path) == index.Code && len(code) < implQuotes {
			code = append(code, f)
		} else {
			other = append(other, f)
		}
	}
	if len(code) > 0 {
		sb.WriteString("**Implementation.** The code that does it:\n\n")
		for i, f := range code {
			writeQuote(sb, "", fmt.Sprintf("%d. [%d] ", i+1, src.add(f)), f)
		}
		sb.WriteString("\n")
	}
	if len(other) > 0 {
		if len(code) > 0 || len(ans) > 0 {
			sb.WriteString("**What else matters.**\n\n")
		}
		for i, f := range other[:min(len(other), summaryQuotes-len(code))] {
			writeQuote(sb, "", fmt.Sprintf("%d. [%d] ", i+1, src.add(f)), f)
		}
		sb.WriteString("\n")
	}
}

// mdText keeps a sentence from being read as Markdown structure: a
// leading list marker, heading or quote is escaped and backticks (which
// would start code) become quotes.
func mdText(s string) string {
	s = strings.ReplaceAll(s, "`", "'")
	if s != "" && strings.ContainsRune("#>-+*|=0123456789", rune(s[0])) {
		s = "\\" + s
	}
	return s
}

// directFindings are the best passages for the question itself, so the
// summary can answer even when the plan's topics drifted from it.
func (r *run) directFindings(qq index.Query) []finding {
	var out []finding
	for _, h := range r.ix.Search(qq, mainFindings, nil) {
		if fd, ok := r.makeFinding(h, qq); ok {
			out = append(out, fd)
		}
	}
	return out
}

// excerpts picks the most relevant excerpt of each of the top files:
// every quotation is cut to its best summaryLines lines (implLines for
// code), ranked by BM25 for the question with tests and examples lowered,
// and weak ones (under a third of the best) are left to the findings.
// The code of a declaration whose comment gave the answer ranks higher:
// it implements what the answer says, while a short line that merely
// names the question's words (var once sync.Once) does not.
func (r *run) excerpts(all []finding, qq index.Query, ans []sentence) []finding {
	var cands []finding
	for _, f := range all {
		g, ok := r.implExcerpt(f, qq)
		if !ok {
			s, e := window(f.Lines, r.lineScores(f.Lines, qq), summaryLines)
			if s >= e {
				continue
			}
			g = f
			g.Start, g.End, g.Lines = f.Start+s, f.Start+e-1, f.Lines[s:e]
		}
		g.Words = matchedWords(g.Lines, qq)
		g.Score = r.ix.ScoreText(qq, strings.Join(g.Lines, "\n")+"\n"+g.Label, declTerms(g)...) * index.ClassWeight(qq, g.Path)
		if ok && r.statesAnswer(g, ans) {
			g.Score *= answeredBoost
		}
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

// statesAnswer reports whether an answer sentence comes from the
// declaration (comment and body) that code excerpt g quotes.
func (r *run) statesAnswer(g finding, ans []sentence) bool {
	file := r.ix.FileByCite(g.Path)
	if file == nil {
		return false
	}
	p, ok := r.ix.PassageAt(file, g.Start)
	return ok && slices.ContainsFunc(ans, func(s sentence) bool {
		return s.path == g.Path && p.Start <= s.start && s.end <= p.End
	})
}

// implExcerpt quotes the code of the declaration a code finding comes
// from: the implLines lines of its body whose code (not comments: the
// answer quotes those) holds the most question terms, or its first lines
// from the declaration on when no code line does.
func (r *run) implExcerpt(f finding, qq index.Query) (finding, bool) {
	if index.KindOf(f.Path) != index.Code {
		return finding{}, false
	}
	file := r.ix.FileByCite(f.Path)
	if file == nil {
		return finding{}, false
	}
	p, ok := r.ix.PassageAt(file, f.Start)
	all := r.lines(f.Abs)
	if !ok || p.End > len(all) {
		return finding{}, false
	}
	lines := all[p.Start-1 : p.End]
	decl := 0
	for decl < len(lines) {
		if _, comment := proseLine(lines[decl], true); !comment && strings.TrimSpace(lines[decl]) != "" {
			break
		}
		decl++
	}
	if decl == len(lines) {
		return finding{}, false
	}
	scores := r.lineScores(lines, qq)
	total := 0.0
	for i, l := range lines {
		if _, comment := proseLine(l, true); comment {
			scores[i] = 0
		}
		if i < decl {
			scores[i] = 0
		}
		total += scores[i]
	}
	s, e := decl, min(len(lines), decl+implLines)
	if total > 0 {
		s, e = window(lines, scores, implLines)
		s = max(s, min(decl, e-1))
	}
	for e > s && strings.TrimSpace(lines[e-1]) == "" {
		e--
	}
	if s >= e {
		return finding{}, false
	}
	g := f
	g.Start, g.End, g.Lines, g.Label = p.Start+s, p.Start+e-1, lines[s:e], p.Label
	return g, true
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

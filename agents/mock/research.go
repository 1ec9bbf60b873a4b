package mock

import (
	"fmt"
	"strings"

	"github.com/rgit-dev/rgit/agents"
)

// research writes a topic's progress file: findings each citing a source,
// the sources, knowledge gaps, and when the topic may be subdivided, 0 to
// Breadth subtopics. Each part draws from its own stream, so a
// re-research after a rejection keeps everything of the first pass and
// adds one finding answering each review gap.
func research(b agents.Brief) output {
	r := seedFor(b.Question, b.Topic, "research")
	answers := seedFor(b.Question, b.Topic, "answers")
	lower := phrase(b.Topic)
	var findings, sources []string
	var fetched []agents.Source
	cite := func(r *rng, claim string) {
		n := len(sources) + 1
		findings = append(findings, fmt.Sprintf("%s (Source %d).", claim, n))
		sources = append(sources, source(r, b.Topic, n))
		fetched = append(fetched, page(sources[n-1], claim))
	}
	for _, c := range r.perm(len(claims))[:3+r.intn(3)] {
		cite(r, fmt.Sprintf("Sources on %s %s", lower, fmt.Sprintf(claims[c], 3+r.intn(40))))
	}
	for _, c := range b.Criteria {
		cite(r, fmt.Sprintf(`On the criterion "%s", the reviewed sources %s`, oneLine(c), fmt.Sprintf(r.pick(claims), 3+r.intn(40))))
	}
	if b.NextSearchTopic != "" {
		cite(answers, fmt.Sprintf(`Searching next for "%s", as the review asked, finds that sources on %s %s`,
			oneLine(b.NextSearchTopic), lower, fmt.Sprintf(answers.pick(claims), 3+answers.intn(40))))
	}
	for _, g := range b.Gaps {
		cite(answers, fmt.Sprintf(`In answer to the review ("%s"), an independent study finds that sources on %s %s`,
			oneLine(g), lower, fmt.Sprintf(answers.pick(claims), 3+answers.intn(40))))
	}

	var body strings.Builder
	fmt.Fprintf(&body, "# Progress: %s\n\n## Findings\n", b.Topic)
	for _, f := range findings {
		fmt.Fprintf(&body, "- %s\n", f)
	}
	body.WriteString("\n## Sources\n")
	for _, s := range sources {
		fmt.Fprintf(&body, "- %s\n", s)
	}
	body.WriteString("\n## Knowledge Gaps\n")
	kg := seedFor(b.Question, b.Topic, "knowledge-gaps")
	for i, g := range kg.perm(len(knowledgeGaps))[:1+kg.intn(3)] {
		fmt.Fprintf(&body, "- Gap %d: "+knowledgeGaps[g]+".\n", i+1, lower)
	}
	subs := 0
	if b.CanSubdivide {
		body.WriteString("\n## Subtopics\n")
		subs = subtopics(&body, seedFor(b.Question, b.Topic, "subtopics"), b)
		if subs == 0 {
			body.WriteString("No subtopics proposed.\n")
		}
	}
	return output{body: body.String(), sources: fetched, text: fmt.Sprintf("Researched %s: %d findings from %d sources, %d subtopics proposed.",
		b.Topic, len(findings), len(sources), subs)}
}

// source is one citation on a reserved example domain.
func source(r *rng, topic string, n int) string {
	title := fmt.Sprintf(r.pick(titleForms), phrase(topic))
	title = strings.ToUpper(title[:1]) + title[1:]
	url := r.pick(urlForms)
	if s := slug(leaf(topic)); strings.Contains(url, "10.5555/%d.%s") {
		url = fmt.Sprintf(url, 1000+r.intn(9000), s)
	} else {
		url = fmt.Sprintf(url, s, 100+r.intn(900))
	}
	return fmt.Sprintf("Source %d: %s (%s, %d) - %s", n, title, r.pick(publishers), 2012+r.intn(14), url)
}

// page is the page the mock "fetched" for a source entry: its URL and
// title, and a text holding the claim that cites it, so quotations of the
// claim are found in it.
func page(entry, claim string) agents.Source {
	_, rest, _ := strings.Cut(entry, ": ")
	title, url, _ := strings.Cut(rest, " - ")
	return agents.Source{URL: url, Title: title, Tool: "mock-fetch", Text: title + "\n\n" + claim + "."}
}

// subtopics writes 0 to Breadth proposals, about one topic in eight
// getting none, so mock trees grow deep. A name is the last part of the
// topic's name and an aspect ("Key Actors - Case Studies"), short at any
// depth. Names the plan already has, from an earlier pass on this topic
// or from another branch, are not proposed again.
func subtopics(w *strings.Builder, r *rng, b agents.Brief) int {
	n := 0
	if r.intn(8) != 0 {
		n = 1 + r.intn(max(1, b.Breadth))
	}
	existing := map[string]bool{strings.ToLower(b.Topic): true}
	for _, e := range b.Existing {
		existing[strings.ToLower(e)] = true
	}
	written := 0
	for _, a := range r.perm(len(subAspects))[:min(n, len(subAspects))] {
		aspect := subAspects[a]
		name := leaf(b.Topic) + " - " + aspect
		if existing[strings.ToLower(name)] {
			continue
		}
		la, lt := strings.ToLower(aspect), phrase(b.Topic)
		fmt.Fprintf(w, "- %s: The %s behind %s, examined in their own right.\n", name, la, lt)
		fmt.Fprintf(w, "  - Documents the main %s with cited sources\n", la)
		fmt.Fprintf(w, "  - States what the %s imply for %s\n", la, lt)
		written++
	}
	return written
}

// phrase is a topic's name for use in prose: "A - B" reads badly in a
// sentence, so it becomes "b in a".
func phrase(name string) string {
	head, aspect, ok := strings.Cut(name, " - ")
	if !ok {
		return strings.ToLower(name)
	}
	return strings.ToLower(leaf(aspect) + " in " + head)
}

// leaf is the last part of a "A - B" name.
func leaf(name string) string {
	if i := strings.LastIndex(name, " - "); i >= 0 {
		return name[i+len(" - "):]
	}
	return name
}

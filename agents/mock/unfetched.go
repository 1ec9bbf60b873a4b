package mock

import (
	"fmt"
	"os"
	"strings"

	"github.com/rgit-dev/rgit/agents"
)

// UnfetchedURL is the page an "unfetched" rule cites without fetching it,
// on a reserved domain so that nobody's page is ever cited.
func UnfetchedURL(topic string) string {
	return "https://unfetched.example.net/" + slug(leaf(topic))
}

// unfetched does the phase's work, then adds a finding citing a URL that
// is in no Source of the result: the failure a citation gate exists for.
func unfetched(task agents.Task) (agents.Result, error) {
	res, err := work(task)
	if err != nil || task.Output == "" {
		return res, err
	}
	data, err := os.ReadFile(task.Output)
	if err != nil {
		return res, &agents.CallError{Backend: "mock", Exit: 1, Msg: err.Error()}
	}
	topic := task.Brief.Topic
	if topic == "" {
		topic = task.Brief.Question
	}
	u := UnfetchedURL(topic)
	doc := string(data)
	switch task.Phase {
	case agents.PhaseResearch:
		n := len(sectionItems(doc, "## Sources")) + 1
		doc = insertAfter(doc, "## Findings\n", fmt.Sprintf("- An unchecked page claims that %s settles the question (Source %d).\n", phrase(topic), n))
		doc = insertAfter(doc, "## Sources\n", fmt.Sprintf("- Source %d: An unfetched page on %s (Nowhere Press, 2020) - %s\n", n, phrase(topic), u))
	case agents.PhaseSynthesize:
		n := numberedEntries(doc) + 1
		doc = insertAfter(doc, "## Findings\n", fmt.Sprintf("\nAn unchecked page claims that %s settles the question [%d].\n", phrase(topic), n))
		doc = strings.TrimRight(doc, "\n") + fmt.Sprintf("\n%d. An unfetched page on %s (Nowhere Press, 2020) - %s\n", n, phrase(topic), u)
	default:
		return res, nil
	}
	if err := writeOutput(task.Output, doc); err != nil {
		return res, &agents.CallError{Backend: "mock", Exit: 1, Msg: err.Error()}
	}
	return res, nil
}

// insertAfter puts text after the first line equal to heading (which
// ends in a newline), or at the end when there is none.
func insertAfter(doc, heading, text string) string {
	if i := strings.Index(doc, heading); i >= 0 {
		return doc[:i+len(heading)] + text + doc[i+len(heading):]
	}
	return doc + text
}

// numberedEntries counts the "n. " entries of a report's sources list.
func numberedEntries(doc string) int {
	_, list, _ := strings.Cut(doc, "\n## Sources\n")
	n := 0
	for _, l := range strings.Split(list, "\n") {
		if strings.HasPrefix(l, "## ") {
			break
		}
		if i := strings.Index(l, ". "); i > 0 && strings.Trim(l[:i], "0123456789") == "" {
			n++
		}
	}
	return n
}

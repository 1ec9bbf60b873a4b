package phases

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/rgit-dev/rgit/phases/plan"
)

// cleanLine drops control characters and collapses whitespace.
func cleanLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// oneLine is s as a commit summary: one clean line of at most 120 bytes.
func oneLine(s string) string {
	s = cleanLine(s)
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// oneLineLong is s as one clean line of at most about 2000 bytes.
func oneLineLong(s string) string {
	s = cleanLine(s)
	if len(s) > 2000 {
		s = s[:2000] + "..."
	}
	return s
}

// truncateName makes a topic name of a question.
func truncateName(s string) string {
	s = cleanLine(s)
	if len(s) > 80 {
		s = strings.TrimSpace(s[:80])
	}
	return s
}

func names(ts []*plan.Topic) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}

func mdList(items []string) string {
	var b strings.Builder
	for _, it := range items {
		fmt.Fprintf(&b, "- %s\n", it)
	}
	return strings.TrimRight(b.String(), "\n")
}

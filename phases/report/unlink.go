package report

import (
	"bytes"
	"regexp"
	"strings"
)

// Unlink undoes RenderMarkdown's citation links, giving back the report as
// its agents wrote it: "[[1](url), [4](url)]" becomes "[1, 4]" and
// "[`a/b.go:3-9`](../../a/b.go#L3-L9)" becomes "`a/b.go:3-9`". rgit links
// the report it merges for git hosts; the views parse citations in this
// plain form, and RenderMarkdown links them again. Only these exact forms
// change, and never inside a fenced code block, where they are data.
func Unlink(md []byte) []byte {
	out := make([]byte, 0, len(md))
	if !bytes.Contains(md, []byte("](")) {
		return append(out, md...) // no link of any form
	}
	text := string(md)
	fence := ""
	for len(text) > 0 {
		n := strings.IndexByte(text, '\n') + 1
		if n == 0 {
			n = len(text)
		}
		line := text[:n]
		text = text[n:]
		trimmed := strings.TrimLeft(line, " ")
		if len(line)-len(trimmed) <= 3 {
			switch {
			case fence == "" && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
				fence = fenceOf(trimmed)
				out = append(out, line...)
				continue
			case fence != "" && strings.HasPrefix(trimmed, fence) && strings.TrimSpace(strings.TrimLeft(trimmed, fence[:1])) == "":
				fence = ""
				out = append(out, line...)
				continue
			}
		}
		if fence != "" || !strings.Contains(line, "](") {
			out = append(out, line...)
			continue
		}
		line = linkedGroupRE.ReplaceAllStringFunc(line, func(g string) string {
			return linkedNumberRE.ReplaceAllString(g, "$1")
		})
		out = append(out, linkedLocalRE.ReplaceAllString(line, "$1")...)
	}
	return out
}

// fenceOf is the run of fence characters opening a code block.
func fenceOf(s string) string {
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	return s[:n]
}

// What RenderMarkdown writes: a href holds no space, parenthesis or angle
// bracket (markdownHref refuses those).
const linkedHref = `\]\([^()\s<>]*\)`

var (
	linkedNumber   = `\[\d{1,4}` + linkedHref
	linkedNumberRE = regexp.MustCompile(`\[(\d{1,4})` + linkedHref)
	// A reference group with at least one linked number.
	linkedGroupRE = regexp.MustCompile(`\[(?:(?:` + linkedNumber + `|\d{1,4})\s*[,;]\s*)*` + linkedNumber +
		`(?:\s*[,;]\s*(?:` + linkedNumber + `|\d{1,4}))*\]`)
	linkedLocalRE = regexp.MustCompile("\\[(`[^`\\s:]+:[0-9]+-[0-9]+`)" + linkedHref)
)

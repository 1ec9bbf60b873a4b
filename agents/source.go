package agents

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxSourceText caps the text a Source keeps of a page: enough to find a
// quotation in, small enough that a session's tree stays small.
const MaxSourceText = 64 << 10

// Source is one page the agent read through its own tools (a web fetch, a
// search result, a fetched file), as the backend reported it. rgit stores
// each under sources/ and checks the report's URL citations against them:
// a URL the agent never read cannot be cited.
type Source struct {
	URL   string
	Title string    // "" when the tool gave none
	Time  time.Time // when the backend reported the fetch; zero when it did not say
	Tool  string    // the tool that read it: "WebFetch", "web_search", "fetch_url", ...
	Text  string    // what the agent saw, cut to MaxSourceText; "" when the backend reports only the URL
}

// NewSource builds a Source with its URL trimmed and its text cut to
// MaxSourceText on a character boundary.
func NewSource(rawURL, title, tool, text string, at time.Time) Source {
	return Source{URL: strings.TrimSpace(rawURL), Title: oneLine(title), Tool: tool, Text: CutText(text, MaxSourceText), Time: at}
}

// CutText cuts s to at most n bytes without splitting a character, and
// says so at the end when it cut.
func CutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const mark = "\n[truncated]"
	cut := n - len(mark)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + mark
}

var nonSlug = regexp.MustCompile(`[^a-z0-9]+`)

// SourceFileName is the stable file name of a URL's source record: a
// readable slug of host and path and a hash of the whole URL, e.g.
// example-com-docs-intro-1a2b3c4d.md. The same URL always gets the same
// name, so fetching a page again replaces its record.
func SourceFileName(rawURL string) string {
	s := strings.TrimSpace(rawURL)
	slug := s
	if u, err := url.Parse(s); err == nil && u.Host != "" {
		s = u.String()
		slug = u.Host + u.Path
	}
	slug = strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(slug), "-"), "-")
	if len(slug) > 60 {
		slug = strings.TrimRight(slug[:60], "-")
	}
	sum := sha256.Sum256([]byte(s))
	return slug + "-" + hex.EncodeToString(sum[:4]) + ".md"
}

// URLPattern finds http(s) URLs in text; a trailing punctuation mark or
// closing bracket is not part of one.
var URLPattern = regexp.MustCompile(`https?://[^\s<>"'\x60\)\]]+[^\s<>"'\x60\)\].,;:!?]`)

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

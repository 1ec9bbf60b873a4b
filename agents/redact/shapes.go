package redact

import (
	"regexp"
	"strings"
)

// keyShape matches keys by their published prefixes. The \b keeps words
// such as "risk-" or "task-" from starting an sk- key. Every key runs to
// the end of its characters, so a replacement never puts a new word
// boundary before the next key: one pass finds them all.
var keyShape = regexp.MustCompile(`\b(?:sk-[A-Za-z0-9_-]{16,}|AIza[0-9A-Za-z_-]{35,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})`)

// bearer keeps the scheme word and removes the token after it. Sixteen
// characters spare prose ("Bearer authentication").
var bearer = regexp.MustCompile(`(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{16,}`)

// urlPassword keeps a URL's scheme, user and host and removes the password
// of its user:password@ (transport errors quote the URL they failed on).
var urlPassword = regexp.MustCompile(`(\b[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@"'<>]*:)[^/\s@"'<>]+@`)

// shapes removes every key shape from s. Each expression runs only when a
// cheap substring search finds its literal part, which most lines lack.
func shapes(s string) (string, bool) {
	changed := false
	replace := func(re *regexp.Regexp, repl string) {
		if !re.MatchString(s) {
			return
		}
		// A password may be the marker already: that is no change.
		if out := re.ReplaceAllString(s, repl); out != s {
			s, changed = out, true
		}
	}
	if strings.Contains(s, "sk-") || strings.Contains(s, "AIza") || hasGitHubPrefix(s) {
		replace(keyShape, Marker)
	}
	if strings.Contains(s, "earer") || strings.Contains(s, "EARER") {
		replace(bearer, "${1}"+Marker)
	}
	if strings.Contains(s, "://") && strings.Contains(s, "@") {
		replace(urlPassword, "${1}"+Marker+"@")
	}
	return s, changed
}

// hasGitHubPrefix reports whether s holds "gh?_" or "github_pat_": "gh"
// alone is in too many words to be worth a regular expression.
func hasGitHubPrefix(s string) bool {
	for {
		i := strings.Index(s, "gh")
		if i < 0 {
			return false
		}
		s = s[i+2:]
		if len(s) > 1 && s[1] == '_' || strings.HasPrefix(s, "ithub_pat_") {
			return true
		}
	}
}

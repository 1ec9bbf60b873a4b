package gitstore

import (
	"cmp"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Trailer is one git trailer line, "Key: Value".
type Trailer struct{ Key, Value string }

// formatMessage appends the trailers as the message's last paragraph, in the
// form `git interpret-trailers --parse` reads back. Keys must be letters,
// digits and dashes; line breaks inside a value become spaces.
func formatMessage(msg string, trailers []Trailer) (string, error) {
	msg = strings.TrimRight(strings.ReplaceAll(msg, "\r\n", "\n"), " \t\n")
	if msg == "" {
		msg = "rgit snapshot"
	}
	if len(trailers) == 0 {
		return msg + "\n", nil
	}
	var b strings.Builder
	b.WriteString(msg)
	b.WriteString("\n\n")
	for _, t := range trailers {
		if !validKey(t.Key) {
			return "", fmt.Errorf("invalid trailer key %q", t.Key)
		}
		v := strings.Join(strings.Fields(t.Value), " ")
		fmt.Fprintf(&b, "%s: %s\n", t.Key, v)
	}
	return b.String(), nil
}

// validKey accepts git trailer tokens: letters, digits and dashes.
func validKey(k string) bool {
	if k == "" || k[0] == '-' {
		return false
	}
	for _, r := range k {
		if !(r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// parseMessage splits a commit message into summary, body and trailers. The
// trailers are the last paragraph when every line of it is "Key: Value".
func parseMessage(msg string) (summary, body string, trailers []Trailer) {
	msg = strings.TrimRight(msg, "\n")
	summary, body, _ = strings.Cut(msg, "\n")
	body = strings.Trim(body, "\n")
	paras := strings.Split(body, "\n\n")
	last := paras[len(paras)-1]
	if last == "" {
		return summary, body, nil
	}
	for _, line := range strings.Split(last, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok || !validKey(k) {
			return summary, body, nil
		}
		trailers = append(trailers, Trailer{Key: k, Value: strings.TrimSpace(v)})
	}
	body = strings.TrimRight(strings.Join(paras[:len(paras)-1], "\n\n"), "\n")
	return summary, body, trailers
}

// signatures holds the author and committer of a new commit.
type signatures struct{ author, committer object.Signature }

// signatures builds the identities like git: GIT_AUTHOR_*/GIT_COMMITTER_*
// from the environment, else user.name and user.email from git config, else
// "rgit <rgit@localhost>". A zero when means now, or GIT_*_DATE when set.
func (s *Store) signatures(when time.Time) signatures {
	if s.ident == nil {
		s.ident = &[2]string{"rgit", "rgit@localhost"}
		if cfg, err := config.LoadConfig(config.GlobalScope); err == nil {
			s.ident[0], s.ident[1] = cmp.Or(cfg.User.Name, s.ident[0]), cmp.Or(cfg.User.Email, s.ident[1])
		}
		// The repository's own setting wins, as in git.
		s.ident[0] = cmp.Or(s.configOption(s.gitDir, "user", "name"), s.ident[0])
		s.ident[1] = cmp.Or(s.configOption(s.gitDir, "user", "email"), s.ident[1])
	}
	name, email := s.ident[0], s.ident[1]
	sig := func(role string) object.Signature {
		sg := object.Signature{Name: envOr("GIT_"+role+"_NAME", name), Email: envOr("GIT_"+role+"_EMAIL", email), When: when}
		if sg.When.IsZero() {
			sg.When = parseGitDate(os.Getenv("GIT_" + role + "_DATE"))
		}
		sg.When = sg.When.Truncate(time.Second)
		return sg
	}
	return signatures{author: sig("AUTHOR"), committer: sig("COMMITTER")}
}

// envOr returns the environment variable, or def when it is unset or empty.
func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// parseGitDate reads the date forms scripts give git ("@1700000000 +0000",
// "1700000000 +0000", RFC 3339, RFC 2822); anything else means now.
func parseGitDate(v string) time.Time {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Now()
	}
	secs, zone, _ := strings.Cut(strings.TrimPrefix(v, "@"), " ")
	if n, err := strconv.ParseInt(secs, 10, 64); err == nil {
		t := time.Unix(n, 0)
		if z, err := time.Parse("-0700", strings.TrimSpace(zone)); err == nil {
			t = t.In(z.Location())
		}
		return t
	}
	for _, layout := range []string{time.RFC3339, time.RFC1123Z, "Mon, 2 Jan 2006 15:04:05 -0700", "2006-01-02 15:04:05 -0700"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t
		}
	}
	return time.Now()
}

// firstLine returns a message's summary line.
func firstLine(msg string) string {
	line, _, _ := strings.Cut(msg, "\n")
	return line
}

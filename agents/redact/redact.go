// Package redact is where secrets are removed. Everything rgit shows or
// stores that an agent, a CLI or a server could have echoed a key into
// passes through a Redactor: a CLI's error messages and final answer
// (agents/proc), the openai backend's messages, and through phases.Redact
// the commit bodies, output files, logs and progress lines.
//
// A Redactor replaces with Marker:
//
//   - the values (8 bytes or longer) of the credential variables of the
//     backend table (agents/registry/catalog) and of any variable whose
//     name looks secret: it contains API_KEY, APIKEY, TOKEN, SECRET,
//     PASSWORD, PASSWD or CREDENTIAL, or has KEY as a '_'-separated word
//     (OPENAI_API_KEY, AWS_ACCESS_KEY_ID, RGIT_E2E_CODEX_KEY);
//   - extra values a backend knows to be secret (its configured key);
//   - anything shaped like a key, wherever it came from (a key stored in a
//     CLI's own auth file never passes through our environment): sk-...
//     (OpenAI, Anthropic's sk-ant-...), AIza... (Google), GitHub's ghp_,
//     gho_, ghu_, ghs_, ghr_ and github_pat_ tokens, the token after
//     "Bearer", and the password of a URL's user:password@.
//
// The values are gathered when the Redactor is built, never per call, and
// a line without a candidate costs a few substring searches: it runs on
// every output line and commit body. The table's variables come from the
// catalog package, which imports nothing of rgit, so this package is a
// leaf that agents/proc (and so every backend) can use.
package redact

import (
	"cmp"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/rgit-dev/rgit/agents/registry/catalog"
)

// Marker replaces every secret.
const Marker = "[redacted]"

// MinLen is the shortest value redacted: shorter values ("1", "true")
// would wipe ordinary words out of the text.
const MinLen = 8

// Redactor removes a fixed set of secret values and every key shape. The
// nil *Redactor removes only the shapes. It is safe for concurrent use.
type Redactor struct {
	values []string // longest first, so no prefix leaves a longer secret's tail
}

// New returns a Redactor for the secrets of env (KEY=value entries, as
// os.Environ returns them) and the extra values.
func New(env []string, extra ...string) *Redactor {
	keyVars := catalog.KeyVars()
	var vals []string
	for _, kv := range env {
		name, v, ok := strings.Cut(kv, "=")
		if ok && (slices.Contains(keyVars, name) || secretName(name)) {
			vals = append(vals, v)
		}
	}
	return (&Redactor{}).With(append(vals, extra...)...)
}

var env = sync.OnceValue(func() *Redactor { return New(os.Environ()) })

// Env returns the Redactor of this process's environment, read on first
// use: rgit never changes its environment. A test that sets a secret
// variable after that builds its own with New.
func Env() *Redactor { return env() }

// With returns a Redactor that also removes values.
func (r *Redactor) With(values ...string) *Redactor {
	out := &Redactor{}
	if r != nil {
		out.values = slices.Clone(r.values)
	}
	for _, v := range values {
		// A part of the marker itself would be found again in every output.
		if len(v) >= MinLen && !strings.Contains(Marker, v) && !slices.Contains(out.values, v) {
			out.values = append(out.values, v)
		}
	}
	slices.SortStableFunc(out.values, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return out
}

// String returns s with every secret replaced by Marker.
func (r *Redactor) String(s string) string {
	// A replacement can join text into a new match (a value that begins
	// with "]"); another pass finds it, so that String is idempotent.
	for range 4 {
		out, changed := r.pass(s)
		if !changed {
			return out
		}
		s = out
	}
	return s
}

func (r *Redactor) pass(s string) (string, bool) {
	changed := false
	if r != nil {
		for _, v := range r.values {
			if strings.Contains(s, v) {
				s, changed = strings.ReplaceAll(s, v, Marker), true
			}
		}
	}
	s, found := shapes(s)
	return s, changed || found
}

// secretName reports whether a variable called name holds a secret.
func secretName(name string) bool {
	n := strings.ToUpper(name)
	for _, w := range []string{"API_KEY", "APIKEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return slices.Contains(strings.Split(n, "_"), "KEY")
}

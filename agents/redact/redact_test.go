package redact

import (
	"strings"
	"testing"
)

// testEnv holds secrets under the table's variables and under secret
// looking names, and ordinary variables that must stay.
var testEnv = []string{
	"ANTHROPIC_API_KEY=not-shaped-like-a-key-42",
	"CLAUDE_CODE_OAUTH_TOKEN=oauth-value-77",
	"AWS_ACCESS_KEY_ID=AKIAEXAMPLEVALUE",
	"DB_PASSWORD=hunter2hunter2",
	"RGIT_E2E_CODEX_KEY=codex-e2e-value",
	"MY_TOKEN=short",
	"HOME=/home/someone",
	"KEYBOARD_LAYOUT=dvorak-programmer",
	"MONKEY_BUSINESS=nothing-secret-here",
}

func TestString(t *testing.T) {
	r := New(testEnv, "extra-secret-value")
	tests := []struct{ name, in, want string }{
		{"table variable", "invalid key not-shaped-like-a-key-42 given", "invalid key [redacted] given"},
		{"token variable", "token oauth-value-77.", "token [redacted]."},
		{"KEY as a word", "id AKIAEXAMPLEVALUE", "id [redacted]"},
		{"password variable", "pw=hunter2hunter2", "pw=[redacted]"},
		{"name ending in _KEY", "codex-e2e-value", "[redacted]"},
		{"extra value", "x extra-secret-value y", "x [redacted] y"},
		{"short value stays", "short answer", "short answer"},
		{"ordinary variables stay", "/home/someone uses dvorak-programmer, nothing-secret-here", "/home/someone uses dvorak-programmer, nothing-secret-here"},
		{"openai key", "Incorrect API key provided: sk-proj-AbCdEf0123456789xyz.", "Incorrect API key provided: [redacted]."},
		{"anthropic key", "key sk-ant-api03-abcdefghijklmnop_QR-st rejected", "key [redacted] rejected"},
		{"google key", "key=AIzaSyA1234567890abcdefghijklmnopqrstuv&x", "key=[redacted]&x"},
		{"github tokens", "ghp_0123456789abcdefghijABCDEFGHIJ012345 and github_pat_11ABCDEFG0123456789_abcdefghij", "[redacted] and [redacted]"},
		{"bearer token", "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig", "Authorization: Bearer [redacted]"},
		{"lower-case bearer", `"authorization":"bearer abcdefghijklmnop1234"`, `"authorization":"bearer [redacted]"`},
		{"url password", `Post "http://user:pw-secret-7@host/v1": refused`, `Post "http://user:[redacted]@host/v1": refused`},
		{"words before sk-", "risk-management-framework and task-oriented-dialogue-systems", "risk-management-framework and task-oriented-dialogue-systems"},
		{"bearer in prose", "Bearer authentication sends a bearer token", "Bearer authentication sends a bearer token"},
		{"short shapes", "sk-short AIzaShort ghp_short", "sk-short AIzaShort ghp_short"},
		{"url without password", "ssh://git@github.com/rgit-dev/rgit and high_score", "ssh://git@github.com/rgit-dev/rgit and high_score"},
		{"already redacted", "Bearer [redacted] http://u:[redacted]@h", "Bearer [redacted] http://u:[redacted]@h"},
		{"glued keys", "AIza" + strings.Repeat("k", 35) + "sk-" + strings.Repeat("s", 16), "[redacted]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := r.String(tt.in)
			if got != tt.want {
				t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if again := r.String(got); again != got {
				t.Errorf("not idempotent: %q, then %q", got, again)
			}
		})
	}
}

func TestValues(t *testing.T) {
	tests := []struct {
		name  string
		r     *Redactor
		in    string
		wants string
	}{
		// The longer secret goes first, or its tail would be left behind.
		{"longest first", New(nil, "abcdefgh", "abcdefgh-and-more"), "abcdefgh-and-more", "[redacted]"},
		{"With adds to New", New(testEnv).With("added-secret"), "added-secret not-shaped-like-a-key-42", "[redacted] [redacted]"},
		{"With on nil", (*Redactor)(nil).With("added-secret"), "added-secret sk-" + strings.Repeat("a", 20), "[redacted] [redacted]"},
		{"nil removes shapes only", nil, "not-shaped-like-a-key-42 sk-" + strings.Repeat("a", 20), "not-shaped-like-a-key-42 [redacted]"},
		{"the marker's own word is no secret", New(nil, "redacted", "[redacted]"), "redacted", "redacted"},
		{"a value starting with ]", New(nil, "]tail-of-it", "lead-secret"), "lead-secret]tail-of-it", "[redacted][redacted]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.r.String(tt.in); got != tt.wants {
				t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.wants)
			}
		})
	}
}

func TestSecretName(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"OPENAI_API_KEY", true}, {"openai_api_key", true}, {"GOOGLE_APIKEY", true},
		{"GITHUB_TOKEN", true}, {"AWS_SECRET_ACCESS_KEY", true}, {"AWS_ACCESS_KEY_ID", true},
		{"PGPASSWORD", true}, {"SMTP_PASSWD", true}, {"GOOGLE_APPLICATION_CREDENTIALS", true},
		{"KEY", true}, {"RGIT_E2E_CODEX_KEY", true},
		{"HOME", false}, {"KEYBOARD_LAYOUT", false}, {"MONKEY_BUSINESS", false}, {"SSH_AUTH_SOCK", false},
		{"OPENAI_BASE_URL", false},
	}
	for _, tt := range tests {
		if got := secretName(tt.name); got != tt.want {
			t.Errorf("secretName(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// Env reads the environment at its first call, which is this test's.
func TestEnv(t *testing.T) {
	t.Setenv("RGIT_REDACT_TEST_TOKEN", "process-secret-value")
	if got := Env().String("a process-secret-value b"); got != "a [redacted] b" {
		t.Errorf("Env().String = %q", got)
	}
}

// FuzzRedact plants a secret in arbitrary text: the output never holds it,
// and redacting the output again changes nothing.
func FuzzRedact(f *testing.F) {
	f.Add("before ", " after", "s3cr3t-value")
	f.Add("Bearer ", "", "abcdefghijklmnopqrstu")
	f.Add("http://u:", "@h/", "pw-pw-pw-pw")
	f.Add("sk-", "AIza", "0123456789abcdef")
	f.Add("[redact", "ed]", "redacted")
	f.Fuzz(func(t *testing.T, head, tail, secret string) {
		secret = strings.Map(func(r rune) rune {
			if r < 128 && (r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
				return r
			}
			return -1
		}, secret)
		if len(secret) < MinLen || strings.Contains(Marker, secret) {
			return // not a secret a Redactor takes
		}
		r := New([]string{"RGIT_FUZZ_TOKEN=" + secret})
		out := r.String(head + secret + tail)
		if strings.Contains(out, secret) {
			t.Fatalf("secret %q survives in %q", secret, out)
		}
		if again := r.String(out); again != out {
			t.Fatalf("not idempotent: %q, then %q", out, again)
		}
	})
}

package phases

import (
	"os"
	"strings"
)

// Secret redaction, moved here unchanged from agentchain.go.

// secretValues are the values of the environment's API keys and tokens,
// which must never reach a commit, a log or the terminal.
func secretValues() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		uk := strings.ToUpper(k)
		if len(v) >= 8 && (strings.Contains(uk, "API_KEY") || strings.Contains(uk, "TOKEN") || strings.Contains(uk, "SECRET") || strings.HasSuffix(uk, "_KEY")) {
			out = append(out, v)
		}
	}
	return out
}

// Redact replaces every secret value in s.
func Redact(s string) string {
	for _, v := range secretValues() {
		s = strings.ReplaceAll(s, v, "[redacted]")
	}
	return s
}

// redactFile removes secret values an agent may have copied into its
// output, before the file can reach a commit.
func redactFile(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	if clean := Redact(string(data)); clean != string(data) {
		return writeFile(path, []byte(clean))
	}
	return nil
}

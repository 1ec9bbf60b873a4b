package phases

import (
	"os"

	"github.com/rgit-dev/rgit/agents/redact"
)

// Redact replaces every secret in s (see package agents/redact, the one
// place secrets are removed), so none reaches a commit, a log or the terminal.
func Redact(s string) string {
	return redact.Env().String(s)
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

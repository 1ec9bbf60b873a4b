package codex

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/rgit-dev/rgit/agents/proc"
)

// configModel is the model codex's own configuration names, which is what
// `codex exec` without --model runs: the top-level `model = "..."` of
// $CODEX_HOME/config.toml (default ~/.codex/config.toml), read from env,
// the environment the CLI ran with. "" when there is none: codex's
// built-in default, which its --json stream does not name either.
func configModel(env []string) string {
	home := proc.Lookup(env, "CODEX_HOME")
	if home == "" {
		h := proc.Lookup(env, "HOME")
		if h == "" {
			return ""
		}
		home = filepath.Join(h, ".codex")
	}
	data, err := os.ReadFile(filepath.Join(home, "config.toml"))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			return "" // a table: the top-level keys are behind us
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(key) != "model" {
			continue
		}
		val = strings.TrimSpace(val)
		if i := strings.Index(val, " #"); i >= 0 {
			val = strings.TrimSpace(val[:i])
		}
		if len(val) >= 2 && (val[0] == '"' || val[0] == '\'') && val[len(val)-1] == val[0] {
			if m := val[1 : len(val)-1]; m != "" && !strings.ContainsAny(m, "\"'\\") {
				return m
			}
		}
		return ""
	}
	return ""
}

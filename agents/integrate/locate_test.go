package integrate

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLocate(t *testing.T) {
	const home, repo = "/home/ada", "/src/proj"
	tests := []struct {
		cli                           CLI
		scope                         Scope
		env                           map[string]string
		config, settings, marketplace string
	}{
		{Claude, User, nil, home + "/.claude.json", home + "/.claude/settings.json", home + "/.claude/rgit"},
		{Claude, User, map[string]string{"CLAUDE_CONFIG_DIR": "/cfg/claude"}, "/cfg/claude/.claude.json", "/cfg/claude/settings.json", "/cfg/claude/rgit"},
		{Claude, Project, nil, repo + "/.mcp.json", repo + "/.claude/settings.local.json", repo + "/.claude/rgit"},
		{Codex, User, nil, home + "/.codex/config.toml", "", ""},
		{Codex, User, map[string]string{"CODEX_HOME": "/cfg/codex"}, "/cfg/codex/config.toml", "", ""},
		{Codex, Project, map[string]string{"CODEX_HOME": "/cfg/codex"}, repo + "/.codex/config.toml", "", ""},
		{Gemini, User, nil, home + "/.gemini/settings.json", "", ""},
		{Gemini, User, map[string]string{"GEMINI_CLI_HOME": "/cfg/g"}, "/cfg/g/.gemini/settings.json", "", ""},
		{Gemini, Project, nil, repo + "/.gemini/settings.json", "", ""},
		{OpenCode, User, nil, home + "/.config/opencode/opencode.json", "", ""},
		{OpenCode, User, map[string]string{"XDG_CONFIG_HOME": "/cfg"}, "/cfg/opencode/opencode.json", "", ""},
		{OpenCode, Project, nil, repo + "/opencode.json", "", ""},
	}
	for _, tt := range tests {
		env := map[string]string{"HOME": home}
		for k, v := range tt.env {
			env[k] = v
		}
		o := Options{CLI: tt.cli, Scope: tt.scope, Root: repo, Getenv: func(k string) string { return env[k] }}
		loc, err := locate(o)
		if err != nil {
			t.Fatalf("%s %s: %v", tt.cli, tt.scope, err)
		}
		want := location{config: filepath.FromSlash(tt.config), settings: filepath.FromSlash(tt.settings), marketplace: filepath.FromSlash(tt.marketplace)}
		if loc != want {
			t.Errorf("%s %s %v: %+v, want %+v", tt.cli, tt.scope, tt.env, loc, want)
		}
	}
}

// TestOpencodeJSONC: an existing opencode.jsonc is the file to edit; a
// new configuration is opencode.json.
func TestOpencodeJSONC(t *testing.T) {
	repo := t.TempDir()
	o := Options{CLI: OpenCode, Scope: Project, Root: repo, Getenv: func(string) string { return "" }}
	if loc, _ := locate(o); loc.config != filepath.Join(repo, "opencode.json") {
		t.Errorf("no file: %s, want opencode.json", loc.config)
	}
	if err := os.WriteFile(filepath.Join(repo, "opencode.jsonc"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if loc, _ := locate(o); loc.config != filepath.Join(repo, "opencode.jsonc") {
		t.Errorf("with opencode.jsonc: %s", loc.config)
	}
}

package integrate

import (
	"errors"
	"os"
	"path/filepath"
)

// location is where one CLI keeps what integrate writes, for one scope.
type location struct {
	config string // the file that registers MCP servers
	// Claude Code only: the settings file that enables the plugin, and the
	// directory holding the plugin's marketplace.
	settings, marketplace string
}

// locate resolves the files of o.CLI in o.Scope. Sources (checked against
// the CLIs pinned in testdata/e2e/versions.txt):
//
//   - Claude Code: MCP scopes table of code.claude.com/docs/en/mcp: project
//     servers in <repo>/.mcp.json, user servers in ~/.claude.json (in
//     $CLAUDE_CONFIG_DIR when set: seen with 2.1.330, which created and read
//     $CLAUDE_CONFIG_DIR/.claude.json). Settings: ~/.claude/settings.json
//     (user) and .claude/settings.local.json (project, personal: the
//     plugin's path is absolute, so it must not be committed).
//   - Codex: $CODEX_HOME/config.toml (default ~/.codex), and
//     <repo>/.codex/config.toml, read for trusted projects only
//     (developers.openai.com/codex/config-basic).
//   - Gemini CLI: $GEMINI_CLI_HOME/.gemini/settings.json (default ~), and
//     <repo>/.gemini/settings.json (docs/reference/configuration.md).
//   - opencode: $XDG_CONFIG_HOME/opencode/opencode.json (default
//     ~/.config), and <repo>/opencode.json (opencode.ai/docs/config); an
//     existing opencode.jsonc is edited instead.
func locate(o Options) (location, error) {
	home := o.Getenv("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil && o.Scope == User {
			return location{}, errors.New("find the user's configuration: HOME is not set")
		}
		home = h
	}
	env := func(name, def string) string {
		if v := o.Getenv(name); v != "" {
			return v
		}
		return def
	}
	user := o.Scope == User
	switch o.CLI {
	case Claude:
		if user {
			dir := env("CLAUDE_CONFIG_DIR", "")
			configFile := filepath.Join(home, ".claude.json")
			if dir != "" {
				configFile = filepath.Join(dir, ".claude.json")
			} else {
				dir = filepath.Join(home, ".claude")
			}
			return location{config: configFile, settings: filepath.Join(dir, "settings.json"), marketplace: filepath.Join(dir, "rgit")}, nil
		}
		dir := filepath.Join(o.Root, ".claude")
		return location{config: filepath.Join(o.Root, ".mcp.json"), settings: filepath.Join(dir, "settings.local.json"), marketplace: filepath.Join(dir, "rgit")}, nil
	case Codex:
		if user {
			return location{config: filepath.Join(env("CODEX_HOME", filepath.Join(home, ".codex")), "config.toml")}, nil
		}
		return location{config: filepath.Join(o.Root, ".codex", "config.toml")}, nil
	case Gemini:
		base := o.Root
		if user {
			base = env("GEMINI_CLI_HOME", home)
		}
		return location{config: filepath.Join(base, ".gemini", "settings.json")}, nil
	case OpenCode:
		dir := o.Root
		if user {
			dir = filepath.Join(env("XDG_CONFIG_HOME", filepath.Join(home, ".config")), "opencode")
		}
		return location{config: existingOr(filepath.Join(dir, "opencode.json"), filepath.Join(dir, "opencode.jsonc"))}, nil
	}
	_, err := ParseCLI(string(o.CLI))
	return location{}, err
}

// existingOr is alt when only alt exists, else path.
func existingOr(path, alt string) string {
	if _, err := os.Stat(path); err != nil {
		if _, err := os.Stat(alt); err == nil {
			return alt
		}
	}
	return path
}

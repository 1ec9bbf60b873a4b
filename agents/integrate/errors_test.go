package integrate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRefusesFiles: a file integrate cannot parse, or whose values have
// the wrong shape, is refused with its name and line, and Plan touches
// nothing (the test compares the directory before and after).
func TestRefusesFiles(t *testing.T) {
	tests := []struct {
		name     string
		cli      CLI
		file     string // under HOME
		content  string
		wantLine int
		wantMsg  string
	}{
		{"claude trailing comma", Claude, ".claude.json", "{\"a\": 1,}\n", 1, "expected a quoted key"},
		{"claude comment (strict JSON)", Claude, ".claude.json", "// mine\n{}\n", 1, "unexpected '/'"},
		{"claude servers not an object", Claude, ".claude.json", "{\n  \"mcpServers\": []\n}\n", 2, `"mcpServers" is not an object`},
		{"claude settings unparseable", Claude, ".claude/settings.json", "{\"model\": opus}\n", 1, "invalid value"},
		{"claude top level array", Claude, ".claude.json", "[]\n", 1, "the top level is not a JSON object"},
		{"gemini unclosed array", Gemini, ".gemini/settings.json", "{\n  \"a\": [1, 2\n}\n", 3, "expected ',' or ']'"},
		{"gemini bad escape", Gemini, ".gemini/settings.json", "{\"a\": \"\\q\"}", 1, `bad escape \q`},
		{"gemini rgit not an object", Gemini, ".gemini/settings.json", "{\"mcpServers\": {\"rgit\": \"on\"}}", 1, `"mcpServers.rgit" is not an object`},
		{"opencode unterminated comment", OpenCode, ".config/opencode/opencode.json", "{ /* open\n", 1, "unterminated /* comment"},
		{"opencode garbage after", OpenCode, ".config/opencode/opencode.json", "{}\n}\n", 2, "after the top-level value"},
		{"codex bad header", Codex, ".codex/config.toml", "model = \"x\"\n[mcp_servers.rgit\ncommand = 1\n", 2, ""},
		{"codex inline servers", Codex, ".codex/config.toml", "mcp_servers = { rgit = { command = \"x\" } }\n", 0, "cannot add [mcp_servers.rgit]"},
		{"codex rgit inline in table", Codex, ".codex/config.toml", "[mcp_servers]\nrgit = { command = \"old\" }\n", 0, "mcp_servers.rgit"},
		{"codex dotted rgit keys", Codex, ".codex/config.toml", "[mcp_servers]\nrgit.command = \"old\"\n", 0, "mcp_servers.rgit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			path := filepath.Join(root, "home", tt.file)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			before := tree(t, root)
			_, err := Plan(userOptions(tt.cli, root))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Plan: %v, want a *ParseError", err)
			}
			if pe.File != path || pe.Line != tt.wantLine || !strings.Contains(pe.Msg, tt.wantMsg) {
				t.Errorf("error %q (file %s, line %d), want file %s, line %d, message with %q", err, pe.File, pe.Line, path, tt.wantLine, tt.wantMsg)
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not name the file", err)
			}
			if after := tree(t, root); after != before {
				t.Errorf("Plan changed the directory:\n%s\nwas:\n%s", after, before)
			}
		})
	}
}

// tree lists every file under root with its contents.
func tree(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		b.WriteString(p + "\n" + string(data) + "\n")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestParseCLI(t *testing.T) {
	for _, name := range []string{"claude", "codex", "gemini", "opencode"} {
		if c, err := ParseCLI(name); err != nil || string(c) != name {
			t.Errorf("ParseCLI(%q) = %q, %v", name, c, err)
		}
	}
	for _, name := range []string{"", "Claude", "cursor", "../claude"} {
		if _, err := ParseCLI(name); err == nil || !strings.Contains(err.Error(), "want claude, codex, gemini or opencode") {
			t.Errorf("ParseCLI(%q): %v, want the list of CLIs", name, err)
		}
	}
}

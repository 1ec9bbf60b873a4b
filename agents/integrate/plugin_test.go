package integrate

import (
	"encoding/json"
	"io/fs"
	"strings"
	"testing"
)

// TestPluginFiles: the manifests are valid JSON naming the plugin, and the
// slash commands carry the frontmatter Claude Code reads and the steps of
// seed 000's /deep-research and /cancel-research, through rgit's tools.
func TestPluginFiles(t *testing.T) {
	plugin := PluginFS()
	for _, name := range []string{".claude-plugin/marketplace.json", "plugin/.claude-plugin/plugin.json"} {
		data, err := fs.ReadFile(plugin, name)
		if err != nil {
			t.Fatal(err)
		}
		var m struct{ Name string }
		if err := json.Unmarshal(data, &m); err != nil || m.Name != PluginName {
			t.Errorf("%s: name %q, %v", name, m.Name, err)
		}
	}
	tests := []struct {
		file string
		want []string
	}{
		{"plugin/commands/deep-research.md", []string{
			"description: ", "argument-hint: ", "allowed-tools: mcp__rgit__research_start, mcp__rgit__research_status, mcp__rgit__research_report",
			"$ARGUMENTS", "--test", `"test": true`, "`research_start`", `["installed"]`, "tail -f <progress_log>",
			"`research_status`", `"wait_seconds": 45`, "`done`", "`failed`", "`stopped`", "`research_report`", "--resume",
		}},
		{"plugin/commands/cancel-research.md", []string{
			"description: ", "allowed-tools: mcp__rgit__research_cancel, mcp__rgit__research_list",
			"$ARGUMENTS", "`research_list`", "`research_cancel`", "--resume",
		}},
	}
	for _, tt := range tests {
		data, err := fs.ReadFile(plugin, tt.file)
		if err != nil {
			t.Fatal(err)
		}
		s := string(data)
		if !strings.HasPrefix(s, "---\n") || strings.Count(s, "\n---\n") < 1 {
			t.Errorf("%s: no frontmatter", tt.file)
		}
		for _, w := range tt.want {
			if !strings.Contains(s, w) {
				t.Errorf("%s does not say %q", tt.file, w)
			}
		}
	}
}

// TestPluginTools lists the MCP tools the commands may call, for the MCP
// server's test to check against the tools it serves.
func TestPluginTools(t *testing.T) {
	got := strings.Join(PluginTools(), " ")
	for _, want := range []string{"research_start", "research_status", "research_report", "research_list", "research_cancel"} {
		if !strings.Contains(got, want) {
			t.Errorf("PluginTools() = %s, missing %s", got, want)
		}
	}
}

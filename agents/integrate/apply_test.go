package integrate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestApplyProject writes a project-scope Claude Code registration: the
// files appear with their modes (~/.claude.json-like files keep 0600), no
// temporary file is left, and an unchanged file is not rewritten.
func TestApplyProject(t *testing.T) {
	repo := t.TempDir()
	mcp := filepath.Join(repo, ".mcp.json")
	if err := os.WriteFile(mcp, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	o := Options{CLI: Claude, Scope: Project, Root: repo, Command: rgitBin, Args: []string{"mcp"}, Getenv: func(string) string { return "" }}
	files, err := Plan(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := Apply(files); err != nil {
		t.Fatal(err)
	}
	want := map[string]os.FileMode{
		".mcp.json":                   0o600,
		".claude/settings.local.json": 0o644,
		".claude/rgit/.claude-plugin/marketplace.json":    0o644,
		".claude/rgit/plugin/.claude-plugin/plugin.json":  0o644,
		".claude/rgit/plugin/commands/deep-research.md":   0o644,
		".claude/rgit/plugin/commands/cancel-research.md": 0o644,
	}
	got := map[string]os.FileMode{}
	err = filepath.WalkDir(repo, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		rel, _ := filepath.Rel(repo, p)
		got[filepath.ToSlash(rel)] = fi.Mode().Perm()
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Errorf("files %v, want %v", got, want)
	}
	for name, mode := range want {
		if got[name] != mode {
			t.Errorf("%s: mode %v, want %v (all: %v)", name, got[name], mode, got)
		}
	}
	data, _ := os.ReadFile(mcp)
	if !strings.Contains(string(data), `"command": "`+rgitBin+`"`) {
		t.Errorf(".mcp.json:\n%s", data)
	}
	// A second run finds nothing to write.
	again, err := Plan(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range again {
		if f.Changed() {
			t.Errorf("%s would change again", f.Path)
		}
	}
}

// TestApplyFailureLeavesNothing: when one file cannot be written, none is
// changed and no temporary file stays.
func TestApplyFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	blocker := filepath.Join(dir, "blocker")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := Apply([]File{
		{Path: good, New: []byte("{}\n"), Mode: 0o644},
		{Path: filepath.Join(blocker, "sub", "x.json"), New: []byte("{}\n"), Mode: 0o644}, // its directory cannot exist
	})
	if err == nil {
		t.Fatal("Apply succeeded under a file posing as a directory")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "blocker" {
		t.Errorf("left behind: %v", entries)
	}
}

// TestCRLF: a Windows-style config keeps its line ends, and rgit's lines
// get them too.
func TestCRLF(t *testing.T) {
	src := "model = \"o3\"\r\n\r\n[mcp_servers.docs]\r\ncommand = \"npx\"\r\n"
	o := Options{CLI: Codex, Command: rgitBin, Args: []string{"mcp"}}
	out, err := setTOMLTable("config.toml", []byte(src), codexTable(o))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), src) {
		t.Errorf("the user's lines changed:\n%q", out)
	}
	if strings.Count(string(out), "\n") != strings.Count(string(out), "\r\n") {
		t.Errorf("mixed line ends:\n%q", out)
	}
}

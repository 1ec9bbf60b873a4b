package codex

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rgit-dev/rgit/agents/proc"
)

// TestParseModel: codex exec --json names no model, so a run records the
// model rgit passed, and nothing when it passed none, whatever the outcome.
func TestParseModel(t *testing.T) {
	ok := []string{`{"type":"thread.started","thread_id":"t"}`, `{"type":"item.completed","item":{"type":"agent_message","text":"done"}}`,
		`{"type":"turn.completed","usage":{"input_tokens":10,"output_tokens":2}}`}
	failed := []string{`{"type":"thread.started","thread_id":"t"}`, `{"type":"turn.failed","error":{"message":"quota"}}`}
	for _, tc := range []struct {
		name    string
		passed  string
		lines   []string
		want    string
		wantErr bool
	}{
		{"the passed model", "gpt-5.1-codex-mini", ok, "gpt-5.1-codex-mini", false},
		{"the CLI's default is unknown", "", ok, "", false},
		{"a failed turn still names it", "gpt-5-codex", failed, "gpt-5-codex", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &parser{passed: tc.passed}
			for _, l := range tc.lines {
				p.Line([]byte(l))
			}
			res, err := p.Finish(proc.Result{}, nil)
			if res.Model != tc.want || (err != nil) != tc.wantErr {
				t.Errorf("model %q err %v, want %q (error %v)", res.Model, err, tc.want, tc.wantErr)
			}
		})
	}
}

// TestConfigModel: without --model, codex runs the model of its own
// config.toml, which is then what the run records.
func TestConfigModel(t *testing.T) {
	for _, tc := range []struct {
		name, toml, want string
	}{
		{"top-level model", "model = \"gpt-5-codex\"\nmodel_reasoning_effort = \"high\"\n", "gpt-5-codex"},
		{"single quotes and a comment", "# mine\nmodel='o3' # fast\n", "o3"},
		{"only a profile's model", "[profiles.fast]\nmodel = \"o4-mini\"\n", ""},
		{"model after a table is not top level", "approval_policy = \"never\"\n[mcp_servers.x]\nmodel = \"no\"\n", ""},
		{"no model", "sandbox_mode = \"workspace-write\"\n", ""},
		{"not a string", "model = 5\n", ""},
		{"empty string", "model = \"\"\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(tc.toml), 0o600); err != nil {
				t.Fatal(err)
			}
			if got := configModel([]string{"HOME=/nowhere", "CODEX_HOME=" + home}); got != tc.want {
				t.Errorf("configModel = %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("HOME's .codex", func(t *testing.T) {
		home := t.TempDir()
		if err := os.Mkdir(filepath.Join(home, ".codex"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, ".codex", "config.toml"), []byte("model = \"gpt-5.1-codex\"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := configModel([]string{"HOME=" + home}); got != "gpt-5.1-codex" {
			t.Errorf("configModel = %q", got)
		}
		p := &parser{}
		for _, l := range []string{`{"type":"item.completed","item":{"type":"agent_message","text":"done"}}`, `{"type":"turn.completed","usage":{}}`} {
			p.Line([]byte(l))
		}
		if res, err := p.Finish(proc.Result{}, []string{"HOME=" + home}); err != nil || res.Model != "gpt-5.1-codex" {
			t.Errorf("Finish = %q, %v; want the config's model", res.Model, err)
		}
	})
	if got := configModel([]string{"HOME=" + t.TempDir()}); got != "" {
		t.Errorf("no config.toml: %q", got)
	}
}

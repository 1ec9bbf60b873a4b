package opencode

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/modelserver"
)

// TestRealCLI runs the installed opencode named by RGIT_REAL_OPENCODE
// against the scripted model server as an OpenAI-compatible provider: the
// flags, the permission setting, the file write and the parsing meet the
// real binary. Skipped without that variable.
func TestRealCLI(t *testing.T) {
	bin := os.Getenv("RGIT_REAL_OPENCODE")
	if bin == "" {
		t.Skip("RGIT_REAL_OPENCODE is not set")
	}
	tests := []struct {
		name    string
		script  *modelserver.Script
		wantErr error
	}{
		{"writes the output", &modelserver.Script{}, nil},
		{"rate limited", &modelserver.Script{Failures: repeat(modelserver.FailRateLimit(), 20)}, agents.ErrRateLimited},
		{"bad key", &modelserver.Script{Failures: repeat(modelserver.FailAuth(), 20)}, agents.ErrAuth},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			go modelserver.Serve(l, tt.script)
			home := t.TempDir()
			config := `{"provider":{"loc":{"npm":"@ai-sdk/openai-compatible","name":"Scripted",` +
				`"options":{"baseURL":"http://` + l.Addr().String() + `/v1","apiKey":"sk-test-0123456789abcdef"},` +
				`"models":{"scripted":{"name":"scripted"}}}}}`
			// XDG dirs stay real so the provider package cached by an
			// earlier run is found; only the config is injected.
			a := New(Options{Binary: bin, Env: []string{"OPENCODE_CONFIG_CONTENT=" + config,
				"OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_CONFIG_DIR=" + home}})
			dir := filepath.Join(t.TempDir(), ".research", "s")
			out := filepath.Join(dir, "progress", "topic.md")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			task := agents.Task{Phase: agents.PhaseResearch, Dir: dir, Output: out, Timeout: 3 * time.Minute,
				Model: "loc/scripted", Prompt: "Research the topic \"Alpha\".\nWrite your findings to " + out + "\n"}
			res, err := a.Run(context.Background(), task)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || strings.Contains(err.Error(), "0123456789abcdef") {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, rerr := os.ReadFile(out)
			if rerr != nil || !strings.Contains(string(b), "## Findings") || !strings.HasPrefix(res.SessionID, "ses_") {
				t.Errorf("output %q (%v), result %+v", b, rerr, res)
			}
			if !slices.Equal(res.Files, []string{"progress/topic.md"}) {
				t.Errorf("files %q", res.Files)
			}
			t.Logf("result: %+v", res)
		})
	}
}

func repeat(f modelserver.Failure, n int) []modelserver.Failure {
	var fs []modelserver.Failure
	for i := 0; i < n; i++ {
		fs = append(fs, f)
	}
	return fs
}

package claude

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

// TestRealCLI runs the installed Claude Code named by RGIT_REAL_CLAUDE
// against the scripted model server: the flags, the file write in the
// workspace (as root too) and the parsing meet the real binary. It is
// skipped without that variable (make e2e sets it after installing the
// pinned CLI).
func TestRealCLI(t *testing.T) {
	bin := os.Getenv("RGIT_REAL_CLAUDE")
	if bin == "" {
		t.Skip("RGIT_REAL_CLAUDE is not set")
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
			dir := filepath.Join(t.TempDir(), ".research", "s")
			out := filepath.Join(dir, "progress", "topic.md")
			a := New(Options{Binary: bin, Env: []string{"HOME=" + home, "CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude"),
				"ANTHROPIC_BASE_URL=http://" + l.Addr().String(), "ANTHROPIC_API_KEY=sk-ant-test-0123456789abcdef",
				"CLAUDE_CODE_MAX_RETRIES=0", "DISABLE_AUTOUPDATER=1"}})
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			task := agents.Task{Phase: agents.PhaseResearch, Dir: dir, Output: out, Timeout: 2 * time.Minute,
				Prompt: "Research the topic \"Alpha\".\nWrite your findings to " + out + "\n"}
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
			if rerr != nil || !strings.Contains(string(b), "## Findings") || res.SessionID == "" || res.Usage.OutputTokens == 0 {
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

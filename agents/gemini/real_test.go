package gemini

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/proc/proctest"
)

// TestRealCLI runs the installed Gemini CLI named by RGIT_REAL_GEMINI with
// no credentials and against a local endpoint that rejects the key, so the
// flags and the error classification meet the real binary (the scripted
// model server does not speak the Gemini API, so the success path is
// covered by the fake only). Skipped without that variable.
func TestRealCLI(t *testing.T) {
	bin := proctest.RealBinary(t, "RGIT_REAL_GEMINI")
	url := proctest.ErrorServer(t, 400, `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}`)
	tests := []struct {
		name string
		env  []string
		want error
	}{
		{"no credentials", nil, agents.ErrAuth},
		{"bad key", []string{"GEMINI_API_KEY=AIzaSyTest" + proctest.KeyTail + "ghij", "GOOGLE_GEMINI_BASE_URL=" + url}, agents.ErrAuth},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			if len(tt.env) > 0 {
				settings := filepath.Join(home, ".gemini", "settings.json")
				os.MkdirAll(filepath.Dir(settings), 0o755)
				os.WriteFile(settings, []byte(`{"security":{"auth":{"selectedType":"gemini-api-key"}}}`), 0o644)
			}
			env := append([]string{"HOME=" + home, "GEMINI_CLI_HOME=" + home, "GEMINI_API_KEY=", "GOOGLE_API_KEY="}, tt.env...)
			a := New(Options{Binary: bin, Env: env})
			_, err := a.Run(context.Background(), agents.Task{Dir: t.TempDir(), Prompt: "say hi", Timeout: 2 * time.Minute})
			proctest.WantError(t, err, tt.want)
			t.Logf("error: %v", err)
		})
	}
}

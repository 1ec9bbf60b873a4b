package gemini

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

// TestRealCLI runs the installed Gemini CLI named by RGIT_REAL_GEMINI with
// no credentials and against a local endpoint that rejects the key, so the
// flags and the error classification meet the real binary (the scripted
// model server does not speak the Gemini API, so the success path is
// covered by the fake only). Skipped without that variable.
func TestRealCLI(t *testing.T) {
	bin := os.Getenv("RGIT_REAL_GEMINI")
	if bin == "" {
		t.Skip("RGIT_REAL_GEMINI is not set")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(400)
		w.Write([]byte(`{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}`))
	}))
	defer srv.Close()
	tests := []struct {
		name string
		env  []string
		want error
	}{
		{"no credentials", nil, agents.ErrAuth},
		{"bad key", []string{"GEMINI_API_KEY=AIzaSyTest0123456789abcdefghij", "GOOGLE_GEMINI_BASE_URL=" + srv.URL}, agents.ErrAuth},
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
			if !errors.Is(err, tt.want) || strings.Contains(err.Error(), "0123456789abcdef") {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			t.Logf("error: %v", err)
		})
	}
}

package codex

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

// TestRealCLI runs the installed Codex CLI named by RGIT_REAL_CODEX
// against a local endpoint that answers every call with one error, so the
// flags and the error classification meet the real binary (Codex speaks
// only the Responses API, which the scripted model server does not, so
// the success path is covered by the fake only). Skipped without that
// variable.
func TestRealCLI(t *testing.T) {
	bin := os.Getenv("RGIT_REAL_CODEX")
	if bin == "" {
		t.Skip("RGIT_REAL_CODEX is not set")
	}
	tests := []struct {
		name   string
		status int
		body   string
		want   error
	}{
		{"bad key", 401, `{"error":{"message":"Incorrect API key provided: sk-proj-abc*****xyz.","type":"invalid_request_error","code":"invalid_api_key"}}`, agents.ErrAuth},
		{"rate limited", 429, `{"error":{"message":"Rate limit reached for gpt-5 on tokens per min (TPM). Please try again in 2s.","type":"tokens","code":"rate_limit_exceeded"}}`, agents.ErrRateLimited},
		{"quota", 429, `{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","code":"insufficient_quota"}}`, agents.ErrQuota},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			home := t.TempDir()
			a := New(Options{Binary: bin, Env: []string{"CODEX_HOME=" + home, "HOME=" + home,
				"CODEX_API_KEY=sk-test-0123456789abcdef"}, Config: []string{`openai_base_url="` + srv.URL + `/v1"`}})
			_, err := a.Run(context.Background(), agents.Task{Dir: t.TempDir(), Prompt: "say hi", Timeout: 3 * time.Minute})
			if !errors.Is(err, tt.want) || strings.Contains(err.Error(), "0123456789abcdef") {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

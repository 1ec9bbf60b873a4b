package codex

import (
	"context"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/proc/proctest"
)

// TestRealCLI runs the installed Codex CLI named by RGIT_REAL_CODEX
// against a local endpoint that answers every call with one error, so the
// flags and the error classification meet the real binary (Codex speaks
// only the Responses API, which the scripted model server does not, so
// the success path is covered by the fake only). Skipped without that
// variable.
func TestRealCLI(t *testing.T) {
	bin := proctest.RealBinary(t, "RGIT_REAL_CODEX")
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
			url := proctest.ErrorServer(t, tt.status, tt.body)
			home := t.TempDir()
			a := New(Options{Binary: bin, Env: []string{"CODEX_HOME=" + home, "HOME=" + home,
				"CODEX_API_KEY=sk-test-" + proctest.KeyTail}, Config: []string{`openai_base_url="` + url + `/v1"`}})
			_, err := a.Run(context.Background(), agents.Task{Dir: t.TempDir(), Prompt: "say hi", Timeout: 3 * time.Minute})
			proctest.WantError(t, err, tt.want)
		})
	}
}

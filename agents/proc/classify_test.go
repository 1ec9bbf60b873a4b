package proc

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

// The messages are the real CLIs' own words (see the package comment of
// classify.go for where each one came from).
func TestClassify(t *testing.T) {
	tests := []struct {
		msg  string
		want error
	}{
		{"Not logged in · Please run /login", agents.ErrAuth},
		{"Invalid API key · Fix external API key", agents.ErrAuth},
		{"unexpected status 401 Unauthorized: Incorrect API key provided: sk-proj-abc*****xyz.", agents.ErrAuth},
		{"Please set an Auth method in your /root/.gemini/settings.json or specify one of the following environment variables before running: GEMINI_API_KEY", agents.ErrAuth},
		{`[API Error: {"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}]`, agents.ErrAuth},
		{"Credit balance is too low", agents.ErrQuota},
		{"Quota exceeded. Check your plan and billing details.", agents.ErrQuota},
		{"You exceeded your current quota, please check your plan and billing details.", agents.ErrQuota},
		{"You've hit your usage limit. Upgrade to Pro or try again later.", agents.ErrQuota},
		{"API Error: Request rejected (429) · This request would exceed the rate limit for your organization", agents.ErrRateLimited},
		{"exceeded retry limit, last status: 429 Too Many Requests", agents.ErrRateLimited},
		{"You exceeded your current quota, please check your plan and billing details.\n* Quota exceeded for metric: x, limit: 10\nPlease retry in 20.5s.", agents.ErrRateLimited},
		{"Rate limit reached for gpt-5 in organization org-x on tokens per min (TPM). Please try again in 2s.", agents.ErrRateLimited},
		{`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, agents.ErrRateLimited},
		{"stream disconnected before completion", nil},
		{"Reached maximum number of turns (30)", nil},
		{"wrote 4290 tokens", nil},
	}
	for _, tt := range tests {
		if got := Classify(tt.msg); got != tt.want {
			t.Errorf("Classify(%q) = %v, want %v", tt.msg, got, tt.want)
		}
	}
}

func TestClassifyStatus(t *testing.T) {
	tests := []struct {
		status int
		msg    string
		want   error
	}{
		{401, "whatever", agents.ErrAuth},
		{403, "", agents.ErrAuth},
		{402, "Insufficient balance or no resource package. Please recharge.", agents.ErrQuota},
		{429, "Rate limit reached", agents.ErrRateLimited},
		{429, "You exceeded your current quota, please check your plan and billing details.", agents.ErrQuota},
		{529, "Overloaded", agents.ErrRateLimited},
		{500, "internal error", nil},
	}
	for _, tt := range tests {
		if got := ClassifyStatus(tt.status, tt.msg); got != tt.want {
			t.Errorf("ClassifyStatus(%d, %q) = %v, want %v", tt.status, tt.msg, got, tt.want)
		}
	}
}

// Fail removes the call's secrets from the CLI's message and still
// classifies it.
func TestFail(t *testing.T) {
	env := []string{"ANTHROPIC_API_KEY=not-shaped-like-a-key-42", "HOME=/home/someone"}
	tests := []struct {
		name, msg, want string
		kind            error
	}{
		{"key from env", " Invalid API key not-shaped-like-a-key-42 \n", "Invalid API key [redacted]", agents.ErrAuth},
		{"key shape", "Incorrect API key provided: sk-proj-AbCdEf0123456789xyz.", "Incorrect API key provided: [redacted].", agents.ErrAuth},
		{"nothing secret", "exit status 2 in /home/someone", "exit status 2 in /home/someone", nil},
		{"empty", "  ", "failed without a message", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ce := Fail("claude", nil, tt.msg, 1, env)
			if ce.Msg != tt.want || ce.Kind != tt.kind || ce.Exit != 1 || ce.Backend != "claude" {
				t.Errorf("Fail(%q) = %+v, want %q kind %v", tt.msg, ce, tt.want, tt.kind)
			}
		})
	}
}

func TestInvokeErrors(t *testing.T) {
	_, err := Invoke(context.Background(), "claude", Cmd{Path: filepath.Join(t.TempDir(), "claude")})
	if !errors.Is(err, agents.ErrNotInstalled) {
		t.Errorf("missing binary: %v", err)
	}
	c := helperCmd(t, "hang", "PROC_PIDFILE="+filepath.Join(t.TempDir(), "pid"))
	c.Timeout = 100 * time.Millisecond
	_, err = Invoke(context.Background(), "claude", c)
	var ce *agents.CallError
	if !errors.Is(err, agents.ErrTimeout) || !errors.As(err, &ce) || !strings.Contains(ce.Msg, "100ms") {
		t.Errorf("deadline: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c.Timeout = 0
	_, err = Invoke(ctx, "claude", c)
	if !errors.Is(err, context.Canceled) || errors.Is(err, agents.ErrTimeout) {
		t.Errorf("cancel: %v", err)
	}
}

func TestEnviron(t *testing.T) {
	t.Setenv("RGIT_PROC_TEST", "old")
	env := Environ("RGIT_PROC_TEST=new", "X_EXTRA=1")
	if Lookup(env, "RGIT_PROC_TEST") != "new" || Lookup(env, "X_EXTRA") != "1" {
		t.Errorf("Environ did not override: %q %q", Lookup(env, "RGIT_PROC_TEST"), Lookup(env, "X_EXTRA"))
	}
	n := 0
	for _, kv := range env {
		if strings.HasPrefix(kv, "RGIT_PROC_TEST=") {
			n++
		}
	}
	if n != 1 || len(env) != len(os.Environ())+1 {
		t.Errorf("duplicates: %d entries of RGIT_PROC_TEST, %d vs %d", n, len(env), len(os.Environ()))
	}
}

func TestRelFiles(t *testing.T) {
	got := RelFiles("/w/.research/s", []string{"/w/.research/s/progress/b.md", "progress/a.md",
		"/w/.research/s/progress/a.md", "/w/reports/s/report.md", "../escape.md", "", "/w/.research/s"})
	if want := []string{"progress/a.md", "progress/b.md"}; !slices.Equal(got, want) {
		t.Errorf("RelFiles = %q, want %q", got, want)
	}
}

package openai

import (
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
)

func TestRedact(t *testing.T) {
	a := New(Options{BaseURL: "http://user:pw-secret-77@host/v1", APIKey: "sk-abcdefghijklmnop"})
	cases := []struct{ in, want string }{
		{"Incorrect API key provided: sk-abcdefghijklmnop.", "Incorrect API key provided: [redacted]."},
		{"key sk-abcdefghijkl**** is invalid", "key [redacted]**** is invalid"},
		{`Post "http://user:pw-secret-77@host/v1/chat/completions": refused`, `Post "http://user:[redacted]@host/v1/chat/completions": refused`},
		{"nothing secret", "nothing secret"},
	}
	for _, tc := range cases {
		if got := a.redact(tc.in); got != tc.want {
			t.Errorf("redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := New(Options{}).redact("no key configured"); !strings.Contains(got, "no key configured") {
		t.Errorf("redact without secrets changed the text: %q", got)
	}
}

func TestEnvOptions(t *testing.T) {
	env := map[string]string{"OPENAI_BASE_URL": "http://h:1/v1/", "OPENAI_API_KEY": "k", "RGIT_SEARXNG_URL": "http://s"}
	o := EnvOptions(func(k string) string { return env[k] })
	if o.BaseURL != "http://h:1/v1/" || o.APIKey != "k" || o.SearxngURL != "http://s" {
		t.Errorf("EnvOptions = %+v", o)
	}
	if a := New(o); a.o.BaseURL != "http://h:1/v1" {
		t.Errorf("trailing slash kept: %q", a.o.BaseURL)
	}
	if a := New(Options{}); a.o.BaseURL != DefaultBaseURL {
		t.Errorf("default base URL = %q", a.o.BaseURL)
	}
}

func TestSessionsBounded(t *testing.T) {
	var s sessions
	first := s.put("", []message{{Role: "user", Content: "a"}})
	big := s.put("", []message{{Role: "tool", Content: strings.Repeat("x", maxResumeBytes+1)}})
	if got := s.get(first); len(got) != 1 || got[0].Content != "a" {
		t.Errorf("get(first) = %+v", got)
	}
	if got := s.get(big); got != nil {
		t.Errorf("a history over %d bytes is resumed: %d messages", maxResumeBytes, len(got))
	}
	for range maxSessions {
		s.put("", nil)
	}
	if got := s.get(first); got != nil || len(s.byID) != maxSessions {
		t.Errorf("after %d more sessions: first = %+v, %d kept", maxSessions, got, len(s.byID))
	}
}

func TestClassify(t *testing.T) {
	a := New(Options{})
	cases := []struct {
		status    int
		msg       string
		withTools bool
		kind      error
		retry     bool
	}{
		{401, "invalid api key", false, agents.ErrAuth, false},
		{403, "forbidden", false, agents.ErrAuth, false},
		{403, "Quota exceeded for project", false, agents.ErrQuota, false},
		{402, "Insufficient credit balance", false, agents.ErrQuota, false},
		{429, "You exceeded your current quota insufficient_quota", false, agents.ErrQuota, false},
		{429, "Rate limit reached", false, agents.ErrRateLimited, true},
		{503, "quota service unavailable", false, nil, true},
		{500, "boom", false, nil, true},
		{400, "registry.ollama.ai/library/gemma does not support tools", true, errToolsRejected, false},
		{400, "does not support tools", false, nil, false},
		{400, "context length exceeded", true, nil, false},
		{404, "model not found", false, nil, false},
	}
	for _, tc := range cases {
		kind, retry := a.classify(&statusError{status: tc.status, msg: tc.msg}, tc.withTools)
		if kind != tc.kind || retry != tc.retry {
			t.Errorf("classify(%d %q, tools %v) = %v, %v; want %v, %v", tc.status, tc.msg, tc.withTools, kind, retry, tc.kind, tc.retry)
		}
	}
}

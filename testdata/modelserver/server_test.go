package modelserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

func post(t *testing.T, url, key string, body any) *http.Response {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("X-Api-Key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// opencodeRequest is a chat completions request with opencode's tools.
func opencodeRequest(prompt string, stream bool, history ...any) map[string]any {
	msgs := append([]any{
		map[string]any{"role": "system", "content": "You are opencode."},
		map[string]any{"role": "user", "content": prompt},
	}, history...)
	fn := func(name string, props ...string) any {
		p := map[string]any{}
		for _, n := range props {
			p[n] = map[string]any{"type": "string"}
		}
		return map[string]any{"type": "function", "function": map[string]any{"name": name, "parameters": map[string]any{"type": "object", "properties": p}}}
	}
	return map[string]any{"model": "scripted", "messages": msgs, "stream": stream,
		"stream_options": map[string]any{"include_usage": true}, "tool_choice": "auto",
		"tools": []any{fn("bash", "command"), fn("read", "filePath"), fn("write", "content", "filePath")}}
}

func TestChatCompletionsNonStreamed(t *testing.T) {
	ms := New(nil)
	srv := httptest.NewServer(ms)
	defer srv.Close()
	prompt := "Topic: Kites\nWrite your output to: /nonexistent/ws/progress/kites.md\n"
	var first struct {
		Choices []struct {
			Message struct {
				ToolCalls []struct {
					ID       string `json:"id"`
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage struct {
			PromptTokens int `json:"prompt_tokens"`
		} `json:"usage"`
	}
	resp := post(t, srv.URL+"/v1/chat/completions", "k", opencodeRequest(prompt, false))
	if err := json.NewDecoder(resp.Body).Decode(&first); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(first.Choices) != 1 || first.Choices[0].FinishReason != "tool_calls" || len(first.Choices[0].Message.ToolCalls) != 1 {
		t.Fatalf("first answer = %+v, want one tool call", first)
	}
	call := first.Choices[0].Message.ToolCalls[0]
	var args map[string]string
	if err := json.Unmarshal([]byte(call.Function.Arguments), &args); err != nil {
		t.Fatal(err)
	}
	if call.Function.Name != "write" || args["filePath"] != "/nonexistent/ws/progress/kites.md" || !strings.Contains(args["content"], "## Findings") {
		t.Errorf("tool call = %s %v", call.Function.Name, args)
	}
	if first.Usage.PromptTokens == 0 {
		t.Error("no usage")
	}
	resp = post(t, srv.URL+"/v1/chat/completions", "k", opencodeRequest(prompt, false,
		map[string]any{"role": "assistant", "content": "", "tool_calls": []any{map[string]any{"id": call.ID, "type": "function", "function": map[string]any{"name": "write", "arguments": call.Function.Arguments}}}},
		map[string]any{"role": "tool", "tool_call_id": call.ID, "content": "Wrote file successfully."}))
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"finish_reason":"stop"`) || !strings.Contains(string(b), "Wrote /nonexistent/ws/progress/kites.md.") {
		t.Errorf("second answer = %s", b)
	}
	reqs := ms.Requests()
	if len(reqs) != 2 || !slices.Equal(reqs[0].Tools, []string{"bash", "read", "write"}) || reqs[0].Answer != "tool:write" || reqs[1].Answer != "text" {
		t.Errorf("log = %+v", reqs)
	}
}

func TestFailuresInEachAPIShape(t *testing.T) {
	cases := []struct {
		name    string
		f       Failure
		path    string
		status  int
		want    string // substring of the body
		retryAt string
	}{
		{"openai auth echoes the key", FailAuth(), "/v1/chat/completions", 401, `"message":"Incorrect API key provided: sk-secret-1.`, ""},
		{"openai rate limit", FailRateLimit(), "/v1/chat/completions", 429, `"type":"rate_limit_error"`, "1"},
		{"openai quota", FailQuota(), "/v1/chat/completions", 429, `"code":"insufficient_quota"`, ""},
		{"anthropic server error", FailServer(), "/v1/messages", 500, `{"error":{"message":"Internal server error","type":"api_error"},"type":"error"}`, ""},
		{"anthropic auth", FailAuth(), "/v1/messages", 401, `"type":"authentication_error"`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ms := New(&Script{Failures: []Failure{tc.f}})
			srv := httptest.NewServer(ms)
			defer srv.Close()
			resp := post(t, srv.URL+tc.path, "sk-secret-1", map[string]any{"model": "m", "messages": []any{}})
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status || !strings.Contains(string(b), tc.want) || resp.Header.Get("Retry-After") != tc.retryAt {
				t.Errorf("got %d %s (Retry-After %q), want %d with %s", resp.StatusCode, b, resp.Header.Get("Retry-After"), tc.status, tc.want)
			}
			// The failure is consumed: the next call succeeds.
			resp = post(t, srv.URL+tc.path, "sk-secret-1", map[string]any{"model": "m", "messages": []any{}})
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Errorf("second call: status %d", resp.StatusCode)
			}
		})
	}
}

func TestTruncatedStreamBreaksTheConnection(t *testing.T) {
	for _, path := range []string{"/v1/chat/completions", "/v1/messages"} {
		t.Run(path, func(t *testing.T) {
			ms := New(&Script{Failures: []Failure{FailTruncated()}})
			srv := httptest.NewServer(ms)
			defer srv.Close()
			resp := post(t, srv.URL+path, "k", map[string]any{"model": "m", "stream": true, "messages": []any{}})
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(string(b), "Partial answer") || strings.Contains(string(b), "[DONE]") || strings.Contains(string(b), "message_stop") {
				t.Errorf("read %q, err %v; want a partial stream cut with an unexpected EOF", b, err)
			}
			if reqs := ms.Requests(); len(reqs) != 1 || reqs[0].Answer != "truncated" {
				t.Errorf("log = %+v", reqs)
			}
		})
	}
}

func TestProbesAndOtherRoutes(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = Serve(l, &Script{Model: "fixed"}) }()
	defer l.Close()
	base := "http://" + l.Addr().String()
	cases := []struct {
		method, path string
		status       int
		want         string
	}{
		{http.MethodHead, "/api/hello", 200, ""},
		{http.MethodGet, "/", 200, ""},
		{http.MethodPost, "/v1/messages/count_tokens", 200, `"input_tokens":`},
		{http.MethodGet, "/v1/models", 200, `"id":"fixed"`},
		{http.MethodPost, "/v1/unknown", 404, `"type":"not_found_error"`},
	}
	for _, tc := range cases {
		req, _ := http.NewRequest(tc.method, base+tc.path, strings.NewReader(`{"messages":[]}`))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || !strings.Contains(string(b), tc.want) {
			t.Errorf("%s %s = %d %s, want %d with %q", tc.method, tc.path, resp.StatusCode, b, tc.status, tc.want)
		}
	}
}

func TestNonPhaseRequestsGetShortText(t *testing.T) {
	ms := New(nil)
	srv := httptest.NewServer(ms)
	defer srv.Close()
	body := opencodeRequest("Write your output to: /w/.research/s/progress/a.md", false)
	body["messages"].([]any)[0] = map[string]any{"role": "system", "content": "You are a title generator. You output ONLY a thread title."}
	delete(body, "tools")
	resp := post(t, srv.URL+"/v1/chat/completions", "k", body)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"content":"rgit research"`) {
		t.Errorf("title request answered %s", b)
	}
}

func TestMessagesNonStreamed(t *testing.T) {
	srv := httptest.NewServer(New(nil))
	defer srv.Close()
	resp := post(t, srv.URL+"/v1/messages", "k", map[string]any{"model": "claude-x", "max_tokens": 100,
		"system": "Be brief.", "tools": claudeTools,
		"messages": []any{map[string]any{"role": "user", "content": "Write the plan to this file:\n\n   /nonexistent/w/research_plan.md\n"}}})
	defer resp.Body.Close()
	var msg struct {
		Type       string `json:"type"`
		StopReason string `json:"stop_reason"`
		Content    []struct {
			Type  string            `json:"type"`
			Name  string            `json:"name"`
			Input map[string]string `json:"input"`
		} `json:"content"`
		Usage struct {
			InputTokens int `json:"input_tokens"`
		} `json:"usage"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&msg); err != nil {
		t.Fatal(err)
	}
	if msg.Type != "message" || msg.StopReason != "tool_use" || len(msg.Content) != 1 || msg.Content[0].Name != "Write" ||
		msg.Content[0].Input["file_path"] != "/nonexistent/w/research_plan.md" || !strings.Contains(msg.Content[0].Input["content"], "# Research Plan") || msg.Usage.InputTokens == 0 {
		t.Errorf("answer = %+v", msg)
	}
}

// TestResumedConversationDoesTheNewTask: a retry resumes the session with a
// new prompt after an earlier write; the server must write again.
func TestResumedConversationDoesTheNewTask(t *testing.T) {
	ms := New(nil)
	srv := httptest.NewServer(ms)
	defer srv.Close()
	prompt := "Write your findings to this file:\n\n   /nonexistent/ws/progress/k.md\n"
	call := map[string]any{"id": "c1", "type": "function", "function": map[string]any{"name": "write", "arguments": "{}"}}
	history := []any{
		map[string]any{"role": "assistant", "content": "", "tool_calls": []any{call}},
		map[string]any{"role": "tool", "tool_call_id": "c1", "content": "Wrote file successfully."},
		map[string]any{"role": "assistant", "content": "Done."},
		map[string]any{"role": "user", "content": "Attempt 1 failed. Do it again.\n" + prompt},
	}
	for _, tc := range []struct {
		history []any
		want    string
	}{
		{history[:2], "text"},
		{history, "tool:write"},
		{append(history, history[:2]...), "text"},
	} {
		resp := post(t, srv.URL+"/v1/chat/completions", "k", opencodeRequest(prompt, false, tc.history...))
		resp.Body.Close()
		reqs := ms.Requests()
		if got := reqs[len(reqs)-1].Answer; got != tc.want {
			t.Errorf("after %d history messages: answer %s, want %s", len(tc.history), got, tc.want)
		}
	}
}

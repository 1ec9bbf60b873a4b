package openai

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The chat completions wire format: what is sent, and how servers phrase
// their errors.

// chatRequest is the body of POST /chat/completions. tool_choice is left
// out on purpose: Ollama rejects it and "auto" is the default elsewhere.
type chatRequest struct {
	Model         string         `json:"model"`
	Messages      []message      `json:"messages"`
	Tools         []toolDef      `json:"tools,omitempty"`
	Stream        bool           `json:"stream"`
	StreamOptions *streamOptions `json:"stream_options,omitempty"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// message is one chat message. Content is always sent, as "" when an
// assistant message carries only tool calls: every server accepts that.
type message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []toolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

type toolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function functionCall `json:"function"`
}

type functionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"` // a JSON string, not an object
}

// readStatusError keeps the server's own message: {"error":{"message"}},
// {"error":"..."} or the raw body.
func readStatusError(resp *http.Response) error {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	se := &statusError{status: resp.StatusCode, msg: strings.TrimSpace(string(raw))}
	var body struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(raw, &body) == nil && len(body.Error) > 0 {
		se.msg = errorText(body.Error)
	}
	if se.msg == "" {
		se.msg = http.StatusText(resp.StatusCode)
	}
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
		se.retryAfter = time.Duration(s) * time.Second
	}
	return se
}

// errorText reads an "error" member that is either a string or an object
// with message, type and code.
func errorText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct {
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if json.Unmarshal(raw, &o) != nil {
		return string(raw)
	}
	var parts []string
	for _, p := range []string{o.Message, o.Type, strings.Trim(string(o.Code), `"`)} {
		if p != "" && p != "null" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " ")
}

package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

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

// errToolsRejected: the server answered 400/422 to a request with tools.
var errToolsRejected = errors.New("server rejected tools")

// statusError is one failed HTTP exchange.
type statusError struct {
	status     int
	msg        string
	retryAfter time.Duration
}

func (e *statusError) Error() string { return fmt.Sprintf("HTTP %d: %s", e.status, e.msg) }

// complete makes one model call, retrying rate limits, server errors and
// broken streams with bounded exponential backoff.
func (a *Agent) complete(ctx context.Context, req *chatRequest) (reply, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return reply{}, fmt.Errorf("encode request: %w", err)
	}
	var last error
	for attempt := 0; ; attempt++ {
		rep, err := a.post(ctx, body)
		if err == nil {
			return rep, nil
		}
		kind, retry := a.classify(err, len(req.Tools) > 0)
		if kind == errToolsRejected {
			return rep, errToolsRejected
		}
		last = err
		if !retry || attempt >= a.o.MaxRetries || ctx.Err() != nil {
			if ctx.Err() != nil {
				return rep, ctx.Err()
			}
			return rep, &agents.CallError{Backend: a.Name(), Kind: kind, Msg: a.redact(last.Error()) + hint(kind)}
		}
		if err := sleep(ctx, a.backoff(attempt, err)); err != nil {
			return rep, err
		}
	}
}

// classify maps a failed exchange to an agents sentinel and whether a
// retry may help.
func (a *Agent) classify(err error, withTools bool) (kind error, retry bool) {
	var se *statusError
	if errors.As(err, &se) {
		low := strings.ToLower(se.msg)
		switch {
		case se.status == 401 || se.status == 403:
			return agents.ErrAuth, false
		case strings.Contains(low, "insufficient_quota") || strings.Contains(low, "quota") || strings.Contains(low, "billing"):
			return agents.ErrQuota, false
		case se.status == 429:
			return agents.ErrRateLimited, true
		case se.status >= 500:
			return nil, true
		case (se.status == 400 || se.status == 422) && withTools && strings.Contains(low, "tool"):
			return errToolsRejected, false
		}
		return nil, false
	}
	var ne *net.OpError
	if errors.As(err, &ne) && ne.Op == "dial" {
		return agents.ErrNotInstalled, true
	}
	return nil, !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

func hint(kind error) string {
	switch kind {
	case agents.ErrAuth:
		return " (check OPENAI_API_KEY)"
	case agents.ErrNotInstalled:
		return " (is the server running? set OPENAI_BASE_URL)"
	}
	return ""
}

// backoff doubles RetryWait per attempt, honouring a server's Retry-After,
// and never waits more than 30 seconds.
func (a *Agent) backoff(attempt int, err error) time.Duration {
	d := a.o.RetryWait << attempt
	var se *statusError
	if errors.As(err, &se) && se.retryAfter > d {
		d = se.retryAfter
	}
	return min(d, 30*time.Second)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// post sends one request and reads the answer, streamed or not.
func (a *Agent) post(ctx context.Context, body []byte) (reply, error) {
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, a.o.BaseURL+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return reply{}, fmt.Errorf("build request: %w", err)
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "text/event-stream, application/json")
	if a.o.APIKey != "" {
		hr.Header.Set("Authorization", "Bearer "+a.o.APIKey)
	}
	resp, err := a.o.HTTPClient.Do(hr)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return reply{}, readStatusError(resp)
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		return readJSON(resp.Body)
	}
	return readStream(resp.Body)
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

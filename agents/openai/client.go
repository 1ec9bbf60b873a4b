package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

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
		quota := strings.Contains(low, "quota") || strings.Contains(low, "billing") || strings.Contains(low, "credit")
		switch {
		case se.status == 401:
			return agents.ErrAuth, false
		case (se.status == 402 || se.status == 403 || se.status == 429) && quota:
			return agents.ErrQuota, false
		case se.status == 403:
			return agents.ErrAuth, false
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

package modelserver

import (
	"net/http"
	"strconv"
	"strings"
)

// Failure is one scripted failed model call: an HTTP error, or a stream
// that starts and then breaks off.
type Failure struct {
	Status     int    // HTTP status of the error answer
	Type       string // the error type in the body, e.g. "rate_limit_error"
	Message    string // the error message; "{key}" is replaced by the key the client sent
	RetryAfter int    // seconds for a Retry-After header; 0 sends none
	Truncate   bool   // start a 200 stream, then cut the connection
}

// FailAuth is a 401 whose message echoes the client's key, as OpenAI does,
// so tests can check that the key never leaks into results or errors.
func FailAuth() Failure {
	return Failure{Status: http.StatusUnauthorized, Type: "authentication_error",
		Message: "Incorrect API key provided: {key}. You can find your API key at your account page."}
}

// FailRateLimit is a 429 that asks to retry in a second.
func FailRateLimit() Failure {
	return Failure{Status: http.StatusTooManyRequests, Type: "rate_limit_error", RetryAfter: 1,
		Message: "Rate limit reached for requests. Please try again in 1s."}
}

// FailQuota is OpenAI's 429 for an exhausted quota.
func FailQuota() Failure {
	return Failure{Status: http.StatusTooManyRequests, Type: "insufficient_quota",
		Message: "You exceeded your current quota, please check your plan and billing details."}
}

// FailServer is a 500.
func FailServer() Failure {
	return Failure{Status: http.StatusInternalServerError, Type: "api_error", Message: "Internal server error"}
}

// FailTruncated starts a streamed answer and breaks the connection.
func FailTruncated() Failure { return Failure{Truncate: true} }

// presentedKey is the credential the client sent, in any of the usual headers.
func presentedKey(h http.Header) string {
	for _, name := range []string{"X-Api-Key", "X-Goog-Api-Key"} {
		if k := h.Get(name); k != "" {
			return k
		}
	}
	return strings.TrimPrefix(h.Get("Authorization"), "Bearer ")
}

// writeFailure answers an HTTP error in the API's own error shape.
// Truncation is handled by the API writers, which know their stream format.
func writeFailure(w http.ResponseWriter, api string, f Failure, h http.Header, req *Request) {
	msg := strings.ReplaceAll(f.Message, "{key}", presentedKey(h))
	if f.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(f.RetryAfter))
	}
	req.Answer = "fail:" + strconv.Itoa(f.Status)
	if api == "anthropic" {
		writeJSON(w, f.Status, map[string]any{"type": "error",
			"error": map[string]any{"type": f.Type, "message": msg}})
		return
	}
	writeJSON(w, f.Status, map[string]any{"error": map[string]any{
		"message": msg, "type": f.Type, "param": nil, "code": f.Type}})
}

// Package modelserver is a scripted language-model server for tests and
// end-to-end runs. It speaks the OpenAI chat completions API (rgit's
// openai backend, opencode), the OpenAI Responses API (Codex CLI), the
// Anthropic Messages API (Claude Code) and Gemini's generateContent (Gemini
// CLI), streamed and not, with tool calls.
//
// It plays a well-behaved agent: from the request's prompt it recognises
// the rgit phase and the output file (Recognise), answers with a call to
// the client's own file-write tool (named and shaped as the request's tools
// list says; a heredoc through the shell tool when there is none) that writes a valid output for that phase (Content), and after
// the tool result ends with a short final text (the verdict JSON for
// reviews). Scripts add failures (401, 429, 500, truncated streams), extra
// tool calls before the write, plain-text answers and tool rejection. Every
// request is logged for tests to inspect.
//
// It lives under testdata so that only tests and `make e2e` build it:
// `go build ./...` and `go install ./...` leave it out, and no production
// package can come to depend on it. The Makefile names it to vet, check
// and test it.
package modelserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
)

// Script is the server's behaviour. The zero value plays a model that
// completes every phase on the first try.
type Script struct {
	// Failures are answered, in order, to the first model calls, one per
	// call, before the scripted behaviour starts.
	Failures []Failure
	// PlainText makes the model ignore tools and answer with the output
	// file's content as its final text, like a model without tool support.
	PlainText bool
	// RejectTools answers 400 "does not support tools" to any request that
	// offers tools, like Ollama with a model that cannot call tools.
	RejectTools bool
	// Before lists tool calls made, in order, before the output is written;
	// each is made only when the client offers that tool.
	Before []Call
	// Verdict is the review verdict: "accept" (default), "reject", or
	// "reject-once": reject unless the prompt carries the gap a scripted
	// rejection asked for, so each topic and the report are rejected once.
	Verdict string
	// Subtopics are proposed by research outputs, one "- Name: description"
	// item each, when the prompt asks for a Subtopics section.
	Subtopics []string
	// Recognise overrides the package's Recognise.
	Recognise func(prompt string) Job
	// Content overrides the package's Content.
	Content func(job Job) string
	// Model is the model name reported in answers; "" echoes the request's.
	Model string
	// PageBase, when set (the server's own base URL), makes research calls
	// fetch PageBase+PagePath with the client's web fetch tool before
	// writing, and cite it and PageBase+UnfetchedPath (webfetch.go).
	PageBase string
}

// Call is one scripted tool call.
type Call struct {
	Tool      string
	Namespace string // Codex's namespace tools: the call names both
	Args      map[string]any
}

// Request is one logged request.
type Request struct {
	API    string // "openai", "responses", "anthropic", "gemini" or "other"
	Method string
	Path   string
	Header http.Header
	Body   []byte
	Tools  []string // names of the tools the client offered
	Job    Job      // what the server recognised in the prompt
	Answer string   // what it did: "tool:<name>", "text", "fail:<status>", "truncated"
}

// Server is an http.Handler playing the script. It is safe for
// concurrent requests.
type Server struct {
	script *Script
	mu     sync.Mutex
	calls  int // model calls so far, to consume Failures in order
	log    []Request
}

// New returns a server playing s; nil means the zero Script.
func New(s *Script) *Server {
	if s == nil {
		s = &Script{}
	}
	return &Server{script: s}
}

// ListenAndServe serves s on addr (host:port) until the listener fails.
func ListenAndServe(addr string, s *Script) error {
	return http.ListenAndServe(addr, New(s))
}

// Serve serves s on l, for callers that pick a free port with ":0".
func Serve(l net.Listener, s *Script) error {
	return http.Serve(l, New(s))
}

// ServeHTTP routes on the URL path only: Claude Code adds "?beta=true".
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	req := Request{API: "other", Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	// Log the request as the answer starts, not when the handler returns: a
	// client may act on a complete answer before the handler has returned.
	lw := &logWriter{ResponseWriter: w, record: func() {
		s.mu.Lock()
		s.log = append(s.log, req)
		s.mu.Unlock()
	}}
	defer lw.start()
	w = lw
	switch {
	case r.Method == http.MethodPost && (r.URL.Path == "/v1/chat/completions" || r.URL.Path == "/chat/completions"):
		req.API = "openai"
		s.chatCompletions(w, body, &req)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		req.API = "anthropic"
		s.messages(w, body, &req)
	case r.Method == http.MethodPost && (r.URL.Path == "/v1/responses" || r.URL.Path == "/responses"):
		req.API = "responses"
		s.responses(w, body, &req)
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/v1beta/models/") &&
		(strings.HasSuffix(r.URL.Path, ":streamGenerateContent") || strings.HasSuffix(r.URL.Path, ":generateContent")):
		req.API = "gemini"
		s.gemini(w, r.URL.Path, body, &req)
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/v1beta/models/") && strings.HasSuffix(r.URL.Path, ":countTokens"):
		req.API = "gemini"
		writeJSON(w, http.StatusOK, map[string]any{"totalTokens": tokens(len(body))})
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		req.API = "anthropic"
		writeJSON(w, http.StatusOK, map[string]any{"input_tokens": tokens(len(body))})
	case r.URL.Path == "/v1/models" || r.URL.Path == "/models":
		writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{
			map[string]any{"id": s.modelName("scripted"), "object": "model", "created": 0, "owned_by": "rgit",
				"type": "model", "display_name": "Scripted"}}})
	case r.Method == http.MethodGet && r.URL.Path == PagePath:
		page(lw)
	case r.Method == http.MethodHead || r.Method == http.MethodGet:
		// Reachability probes (Claude Code sends HEAD /api/hello).
		w.WriteHeader(http.StatusOK)
	default:
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{
			"message": "no route for " + r.Method + " " + r.URL.Path, "type": "not_found_error"}})
	}
}

// nextFailure consumes the next scripted failure, if any.
func (s *Server) nextFailure() (Failure, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.calls
	s.calls++
	if n < len(s.script.Failures) {
		return s.script.Failures[n], true
	}
	return Failure{}, false
}

func (s *Server) modelName(requested string) string {
	if s.script.Model != "" {
		return s.script.Model
	}
	if requested == "" {
		return "scripted"
	}
	return requested
}

// tokens is a rough token count: about four bytes per token.
func tokens(n int) int { return n/4 + 1 }

func writeJSON(w http.ResponseWriter, status int, v any) {
	var b bytes.Buffer
	_ = json.NewEncoder(&b).Encode(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}

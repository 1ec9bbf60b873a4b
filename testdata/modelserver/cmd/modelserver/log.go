package main

import (
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/rgit-dev/rgit/testdata/modelserver"
)

// recorder is the part of *modelserver.Server the log needs.
type recorder interface {
	http.Handler
	Requests() []modelserver.Request
}

// entry is one logged request. It names the headers that carried a
// credential but never their values: the log is kept next to the outputs
// that the end-to-end run scans for leaked keys.
type entry struct {
	Time      string   `json:"time"`
	API       string   `json:"api"`
	Method    string   `json:"method"`
	Path      string   `json:"path"`
	Tools     []string `json:"tools,omitempty"`
	Phase     string   `json:"phase,omitempty"`
	Output    string   `json:"output,omitempty"`
	Topic     string   `json:"topic,omitempty"`
	Answer    string   `json:"answer,omitempty"`
	MCP       string   `json:"mcp,omitempty"`    // the rgit MCP script's step
	Result    string   `json:"result,omitempty"` // the last tool result it read, cut short
	Auth      []string `json:"auth,omitempty"`
	BodyBytes int      `json:"body_bytes"`
}

// credentialHeaders are the headers the agent CLIs send keys in.
var credentialHeaders = []string{"Authorization", "X-Api-Key", "X-Goog-Api-Key", "Api-Key"}

// logged serves through srv and appends the requests it has seen since the
// last write to w, one JSON line each.
type logged struct {
	srv     recorder
	mu      sync.Mutex
	w       io.Writer
	written int
}

func newLogged(srv recorder, w io.Writer) *logged { return &logged{srv: srv, w: w} }

func (l *logged) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	l.srv.ServeHTTP(w, r)
	l.flush()
}

// flush writes the requests not logged yet. The server's log only grows,
// so an index is enough to know where the last write stopped.
func (l *logged) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	reqs := l.srv.Requests()
	enc := json.NewEncoder(l.w)
	for _, r := range reqs[min(l.written, len(reqs)):] {
		_ = enc.Encode(toEntry(r))
	}
	l.written = max(l.written, len(reqs))
}

func toEntry(r modelserver.Request) entry {
	e := entry{
		Time: time.Now().UTC().Format(time.RFC3339Nano), API: r.API, Method: r.Method, Path: r.Path,
		Tools: r.Tools, Phase: string(r.Job.Phase), Output: r.Job.Output, Topic: r.Job.Topic,
		Answer: r.Answer, MCP: r.Job.MCP, Result: cut(r.Job.Result, 2000), BodyBytes: len(r.Body),
	}
	for _, h := range credentialHeaders {
		if r.Header.Get(h) != "" {
			e.Auth = append(e.Auth, h)
		}
	}
	return e
}

// cut shortens s to at most n bytes, on a rune boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

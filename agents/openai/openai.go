// Package openai runs rgit phases on any OpenAI-compatible chat completions
// endpoint (OpenAI, Ollama, vLLM, llama.cpp server).
//
// A plain chat model cannot touch the disk, so the agent runs a bounded
// tool-calling loop: the model may list, read and search the workspace and
// the corpus directories, write files inside the workspace (or exactly
// Task.Output), fetch web pages into sources/ and, when a SearXNG instance is
// configured, search the web. Models or servers without tool support still
// work: their final text is returned as Result.Text, which the research
// loop writes to Task.Output when the file is missing.
//
// Chat completions servers keep no state, so the agent keeps each
// conversation in memory: a Task.SessionID from an earlier Result continues
// it (a retry or a deeper pass on the same topic) within one process.
//
// The API key is sent only in the Authorization header; it never appears in
// a Result or an error.
package openai

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/agents/redact"
)

// DefaultBaseURL is Ollama's OpenAI-compatible endpoint, used when no base
// URL is configured.
const DefaultBaseURL = "http://localhost:11434/v1"

// Defaults for the zero values of Options.
const (
	DefaultMaxTurns      = 40
	DefaultFetchMaxBytes = 2 << 20
	DefaultFetchTimeout  = 30 * time.Second
	DefaultMaxRetries    = 4
	DefaultRetryWait     = time.Second
)

// Options configures the backend. The zero value talks to a local Ollama.
type Options struct {
	// BaseURL includes the version path, e.g. https://api.openai.com/v1;
	// {BaseURL}/chat/completions is called. "" means DefaultBaseURL.
	BaseURL string
	// APIKey is sent as a bearer token when not empty.
	APIKey string
	// Model is used when Task.Model is empty.
	Model string
	// Corpus lists extra read-only directories the model may list, read and
	// search, besides Task.Dir and Task.Brief.Corpus.
	Corpus []string
	// HTTPClient is used for the API and for fetch_url; nil means a client
	// without a global timeout (calls are bounded by the context instead).
	HTTPClient *http.Client
	// MaxTurns bounds model calls per Run; 0 means DefaultMaxTurns.
	MaxTurns int
	// SearxngURL enables the web_search tool through a SearXNG instance.
	SearxngURL string
	// FetchMaxBytes caps one fetched page; 0 means DefaultFetchMaxBytes.
	FetchMaxBytes int64
	// FetchTimeout caps one fetch; 0 means DefaultFetchTimeout.
	FetchTimeout time.Duration
	// MaxRetries bounds retries of one model call after 429, 5xx or a
	// broken stream; 0 means DefaultMaxRetries, negative means none.
	MaxRetries int
	// RetryWait is the first backoff; it doubles per retry, capped at 30s.
	// 0 means DefaultRetryWait.
	RetryWait time.Duration
}

// EnvOptions reads OPENAI_BASE_URL, OPENAI_API_KEY and RGIT_SEARXNG_URL
// through getenv (usually os.Getenv).
func EnvOptions(getenv func(string) string) Options {
	return Options{
		BaseURL:    getenv("OPENAI_BASE_URL"),
		APIKey:     getenv("OPENAI_API_KEY"),
		SearxngURL: getenv("RGIT_SEARXNG_URL"),
	}
}

// Agent is the openai backend. It is safe for concurrent Runs.
type Agent struct {
	o        Options
	redactor *redact.Redactor // the environment's secrets, the key and the URL's password
	sess     sessions
}

// New returns an Agent with the zero fields of o set to their defaults.
func New(o Options) *Agent {
	if o.BaseURL == "" {
		o.BaseURL = DefaultBaseURL
	}
	o.BaseURL = strings.TrimRight(o.BaseURL, "/")
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{}
	}
	if o.MaxTurns <= 0 {
		o.MaxTurns = DefaultMaxTurns
	}
	if o.FetchMaxBytes <= 0 {
		o.FetchMaxBytes = DefaultFetchMaxBytes
	}
	if o.FetchTimeout <= 0 {
		o.FetchTimeout = DefaultFetchTimeout
	}
	if o.MaxRetries == 0 {
		o.MaxRetries = DefaultMaxRetries
	}
	if o.RetryWait <= 0 {
		o.RetryWait = DefaultRetryWait
	}
	return &Agent{o: o, redactor: redact.Env().With(secretsOf(o)...)}
}

// Name is "openai".
func (a *Agent) Name() string { return "openai" }

// redact removes secrets, the API key and the base URL's password among
// them, from text that may echo them (server messages such as "Incorrect
// API key provided: sk-...", transport errors that quote the URL).
func (a *Agent) redact(s string) string { return a.redactor.String(s) }

// secretsOf lists the secrets of o that the environment may not hold.
func secretsOf(o Options) []string {
	var out []string
	if o.APIKey != "" {
		out = append(out, o.APIKey)
		// Servers often echo a shortened key; hide a long prefix of it too.
		if len(o.APIKey) >= 12 {
			out = append(out, o.APIKey[:len(o.APIKey)-4])
		}
	}
	if u, err := url.Parse(o.BaseURL); err == nil && u.User != nil {
		if pw, ok := u.User.Password(); ok && pw != "" {
			out = append(out, pw)
		}
	}
	return out
}

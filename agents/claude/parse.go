package claude

import (
	"bytes"
	"strings"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/proc"
)

// event is the part of a stream-json line the backend reads. Unknown types
// and fields are ignored, as the Agent SDK does.
type event struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	SessionID string `json:"session_id"`
	Model     string `json:"model"` // system init line: the model this run uses
	// assistant lines: the message, and the error kind of a synthetic
	// message ("authentication_failed", "rate_limit", "billing_error").
	Message *struct {
		Content []struct {
			Type  string `json:"type"`
			Text  string `json:"text"`
			ID    string `json:"id"`   // of a tool_use
			Name  string `json:"name"` // of a tool_use
			Input struct {
				FilePath     string `json:"file_path"`
				NotebookPath string `json:"notebook_path"`
				URL          string `json:"url"` // WebFetch
			} `json:"input"`
		} `json:"content"`
	} `json:"message"`
	Error string `json:"error"`
	// result line
	IsError        bool     `json:"is_error"`
	Result         string   `json:"result"`
	Errors         []string `json:"errors"`
	APIErrorStatus int      `json:"api_error_status"`
	TotalCostUSD   float64  `json:"total_cost_usd"`
	Usage          *struct {
		InputTokens              int64 `json:"input_tokens"`
		OutputTokens             int64 `json:"output_tokens"`
		CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	} `json:"usage"`
}

// parser accumulates a run's stream; it is the backend's proc.Parser.
type parser struct {
	dir      string   // the workspace, for Result.Files
	files    []string // paths given to the file-writing tools
	session  string
	model    string // from the init line, so rgit records the model the CLI chose
	lastText string // the last assistant text, for errors without a result
	apiError string // the error kind of the last synthetic assistant message
	result   *event
	pending  map[string]webCall // web tool calls awaiting their results, by tool_use id
	sources  []agents.Source    // pages the agent read (parsesources.go)
}

// userEvent starts the lines that carry tool results back to the model:
// the bulk of a stream (whole files, web pages) and nothing the backend
// needs, so they are skipped without decoding unless a web tool's result
// is awaited. Claude Code writes "type" first; a line in another order is
// simply decoded.
var userEvent = []byte(`{"type":"user"`)

// writeTools are Claude Code's tools that write a file.
var writeTools = map[string]bool{"Write": true, "Edit": true, "MultiEdit": true, "NotebookEdit": true}

// Session returns the session id seen so far.
func (p *parser) Session() string { return p.session }

func (p *parser) Line(b []byte) {
	var e event
	if bytes.HasPrefix(bytes.TrimSpace(b), userEvent) {
		if len(p.pending) > 0 {
			p.toolResults(b)
		}
		return
	}
	if !proc.DecodeLine(b, &e) {
		return
	}
	if e.SessionID != "" {
		p.session = e.SessionID
	}
	switch e.Type {
	case "system":
		if e.Subtype == "init" && e.Model != "" {
			p.model = e.Model
		}
	case "assistant":
		if e.Error != "" {
			p.apiError = e.Error
		}
		if e.Message != nil {
			var texts []string
			for _, c := range e.Message.Content {
				switch {
				case c.Type == "text" && c.Text != "":
					texts = append(texts, c.Text)
				case c.Type == "tool_use" && writeTools[c.Name]:
					p.files = append(p.files, c.Input.FilePath+c.Input.NotebookPath)
				case c.Type == "tool_use":
					p.noteWebCall(c.ID, c.Name, c.Input.URL)
				}
			}
			if len(texts) > 0 {
				p.lastText = strings.Join(texts, "\n")
			}
		}
	case "result":
		p.result = &e
	}
}

// Finish turns the parsed stream and the exit status into the call's
// outcome. Success needs a result line without is_error and exit 0.
func (p *parser) Finish(res proc.Result, env []string) (agents.Result, error) {
	out := agents.Result{SessionID: p.session, Model: p.model, ExitCode: res.ExitCode, Files: proc.RelFiles(p.dir, p.files), Sources: p.sources}
	out.Usage.Duration = res.Duration
	r := p.result
	if r == nil {
		msg := proc.LastLines(res.Stderr, 5)
		if msg == "" {
			msg = "the stream ended without a result event"
		}
		return out, proc.Fail(Name, nil, msg, res.ExitCode, env)
	}
	if r.Usage != nil {
		u := r.Usage
		out.Usage.InputTokens = u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
		out.Usage.OutputTokens = u.OutputTokens
		out.Usage.CachedTokens = u.CacheReadInputTokens
	}
	out.Usage.CostUSD = r.TotalCostUSD
	if r.IsError || res.ExitCode != 0 {
		msg := r.Result
		if len(r.Errors) > 0 {
			msg = strings.Join(r.Errors, "; ")
		}
		if msg == "" {
			msg = proc.LastLines(res.Stderr, 5)
		}
		if msg == "" && r.Subtype != "" {
			msg = r.Subtype
		}
		return out, proc.Fail(Name, p.kind(r, msg), msg, res.ExitCode, env)
	}
	out.Text = r.Result
	return out, nil
}

// kind prefers the CLI's own error classification over the message text.
func (p *parser) kind(r *event, msg string) error {
	switch p.apiError {
	case "authentication_failed", "oauth_org_not_allowed":
		return agents.ErrAuth
	case "rate_limit":
		// A subscription's usage limit arrives as rate_limit too, but
		// waiting minutes will not lift it.
		if proc.Classify(msg) == agents.ErrQuota {
			return agents.ErrQuota
		}
		return agents.ErrRateLimited
	case "billing_error":
		return agents.ErrQuota
	}
	return proc.ClassifyStatus(r.APIErrorStatus, msg)
}

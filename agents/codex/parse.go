package codex

import (
	"strings"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/proc"
)

// event is the part of a `codex exec --json` line the backend reads.
type event struct {
	Type     string `json:"type"`
	ThreadID string `json:"thread_id"`
	Message  string `json:"message"` // top-level error events
	Item     *struct {
		Type    string `json:"type"`
		Text    string `json:"text"`
		Status  string `json:"status"`
		Changes []struct {
			Path string `json:"path"`
			Kind string `json:"kind"` // add, delete, update
		} `json:"changes"` // of a file_change
		Action *struct {
			Type string `json:"type"` // search, open_page, find_in_page
			URL  string `json:"url"`
		} `json:"action"` // of a web_search
	} `json:"item"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
	Usage *struct {
		InputTokens       int64 `json:"input_tokens"`
		CachedInputTokens int64 `json:"cached_input_tokens"`
		OutputTokens      int64 `json:"output_tokens"`
	} `json:"usage"`
}

// parser accumulates a run's events; it is the backend's proc.Parser.
type parser struct {
	dir       string   // the workspace, for Result.Files
	passed    string   // the model rgit passed with --model ("" for the CLI's default)
	files     []string // paths of file_change items
	thread    string
	text      string // the last agent_message: the final answer
	lastError string // the last top-level error event (often a retry notice)
	failed    string // turn.failed's message
	completed *event // turn.completed
	sources   []agents.Source
}

// Session returns the session id seen so far.
func (p *parser) Session() string { return p.thread }

func (p *parser) Line(b []byte) {
	var e event
	if !proc.DecodeLine(b, &e) {
		return
	}
	switch e.Type {
	case "thread.started":
		p.thread = e.ThreadID
	case "item.completed":
		switch {
		case e.Item == nil:
		case e.Item.Type == "agent_message":
			p.text = e.Item.Text
		case e.Item.Type == "web_search" && e.Item.Action != nil && e.Item.Action.URL != "":
			// Codex reports the page it opened, not its text: the record
			// proves the visit, and a quotation from it cannot be checked.
			p.sources = append(p.sources, agents.NewSource(e.Item.Action.URL, "", "web_search", "", time.Time{}))
		case e.Item.Type == "file_change" && e.Item.Status != "failed":
			for _, c := range e.Item.Changes {
				if c.Kind != "delete" {
					p.files = append(p.files, c.Path)
				}
			}
		}
	case "error":
		p.lastError = e.Message
	case "turn.failed":
		p.failed = "turn failed"
		if e.Error != nil && e.Error.Message != "" {
			p.failed = e.Error.Message
		}
	case "turn.completed":
		p.completed = &e
	}
}

// Finish decides the outcome. Some builds exit 0 after turn.failed, so
// success needs turn.completed, no turn.failed, and exit 0.
func (p *parser) Finish(res proc.Result, env []string) (agents.Result, error) {
	// codex exec --json names no model on any event: the model that ran
	// is the one rgit passed, else the one codex's config sets.
	out := agents.Result{SessionID: p.thread, Model: p.passed, ExitCode: res.ExitCode, Files: proc.RelFiles(p.dir, p.files), Sources: p.sources}
	if out.Model == "" {
		out.Model = configModel(env)
	}
	out.Usage.Duration = res.Duration
	if c := p.completed; c != nil && c.Usage != nil {
		out.Usage.InputTokens = c.Usage.InputTokens
		out.Usage.OutputTokens = c.Usage.OutputTokens
		out.Usage.CachedTokens = c.Usage.CachedInputTokens
	}
	var msg string
	switch {
	case p.failed != "":
		msg = p.failed
	case p.completed == nil:
		msg = p.lastError
		if msg == "" {
			msg = stderrMessage(res.Stderr)
		}
		if msg == "" {
			msg = "the stream ended without turn.completed"
		}
	case res.ExitCode != 0:
		msg = stderrMessage(res.Stderr)
	default:
		out.Text = p.text
		return out, nil
	}
	return out, proc.Fail(Name, nil, msg, res.ExitCode, env)
}

// stderrMessage drops Codex's startup warnings and log lines, which come
// before the real message.
func stderrMessage(b []byte) string {
	var keep []string
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "WARNING: proceeding") || strings.Contains(l, " ERROR codex_") || strings.Contains(l, " WARN codex_") {
			continue
		}
		keep = append(keep, l)
	}
	if len(keep) > 5 {
		keep = keep[len(keep)-5:]
	}
	return strings.Join(keep, "\n")
}

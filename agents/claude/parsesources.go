package claude

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/proc"
)

// webTools are Claude Code's tools that read the web: their calls and
// results become the call's Sources.
var webTools = map[string]bool{"WebFetch": true, "WebSearch": true}

// webCall is a WebFetch or WebSearch call waiting for its result.
type webCall struct {
	tool string
	url  string // WebFetch's input.url
}

// toolResultLine is the part of a "user" line that carries a tool result.
type toolResultLine struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	Message   *struct {
		Content []struct {
			Type      string          `json:"type"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"` // a string or [{"type":"text","text":...}]
			IsError   bool            `json:"is_error"`
		} `json:"content"`
	} `json:"message"`
	// ToolUseResult is the tool's structured result: WebFetch's
	// {url, code, result}, WebSearch's {query, results: [{content: [{title, url}]} | "text"]}.
	ToolUseResult json.RawMessage `json:"tool_use_result"`
}

// noteWebCall remembers a web tool's call until its result line comes.
func (p *parser) noteWebCall(id, name, url string) {
	if !webTools[name] || id == "" {
		return
	}
	if p.pending == nil {
		p.pending = map[string]webCall{}
	}
	p.pending[id] = webCall{tool: name, url: url}
}

// toolResults turns the results of pending web calls into Sources. It is
// the only decoding of "user" lines, and runs only while a web call waits.
func (p *parser) toolResults(b []byte) {
	var e toolResultLine
	if !proc.DecodeLine(b, &e) || e.Message == nil {
		return
	}
	at, _ := time.Parse(time.RFC3339Nano, e.Timestamp)
	for _, c := range e.Message.Content {
		call, ok := p.pending[c.ToolUseID]
		if c.Type != "tool_result" || !ok {
			continue
		}
		delete(p.pending, c.ToolUseID)
		if c.IsError {
			continue // a failed fetch is not a read
		}
		text := resultText(c.Content)
		switch call.tool {
		case "WebFetch":
			var r struct {
				URL  string `json:"url"`
				Code int    `json:"code"`
			}
			_ = json.Unmarshal(e.ToolUseResult, &r)
			if r.Code >= 400 {
				continue
			}
			u := call.url
			if u == "" {
				u = r.URL
			}
			if u != "" {
				p.sources = append(p.sources, agents.NewSource(u, "", call.tool, text, at))
			}
		case "WebSearch":
			for _, l := range searchLinks(e.ToolUseResult, text) {
				p.sources = append(p.sources, agents.NewSource(l.URL, l.Title, call.tool, l.Title, at))
			}
		}
	}
}

// link is one search result.
type link struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// searchLinks reads WebSearch's result links from its structured result,
// else from the "Links: [...]" JSON in its text.
func searchLinks(structured json.RawMessage, text string) []link {
	var r struct {
		Results []json.RawMessage `json:"results"`
	}
	var out []link
	if json.Unmarshal(structured, &r) == nil {
		for _, raw := range r.Results {
			var hit struct {
				Content []link `json:"content"`
			}
			if json.Unmarshal(raw, &hit) == nil {
				out = append(out, hit.Content...)
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "Links:"); ok {
			var links []link
			if json.Unmarshal([]byte(strings.TrimSpace(rest)), &links) == nil {
				out = append(out, links...)
			}
		}
	}
	return out
}

// resultText is a tool_result's content as text: a string, or the text
// blocks of a list joined.
func resultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

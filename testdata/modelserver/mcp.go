package modelserver

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
)

// The rgit MCP script. When a request offers rgit's MCP tools (Claude
// Code: mcp__rgit__research_start; Gemini CLI: mcp_rgit_research_start;
// Codex: research_start inside the namespace tool mcp__rgit; opencode:
// rgit_research_start), the model researches through them: research_start
// of a small mock session, research_status until it is done,
// research_report, then a final answer that quotes the report's title.
// The step is derived from the calls and tool results in the request, so
// the server keeps no state.

// MCPTopic is the question the script researches.
const MCPTopic = "How do tides work?"

// toolSearch loads rgit's tools where Claude Code defers MCP tools: the
// request names them in a message but offers only ToolSearch, whose
// "select:" query puts them in the next request's tools.
func toolSearch(t turn) (*Call, bool) {
	const start = "mcp__rgit__research_start"
	search, ok := t.find([]string{"ToolSearch"})
	if !ok || slices.Contains(t.calls, search.name) || !strings.Contains(t.system+t.userText(), start) {
		return nil, false
	}
	if _, offered := t.find([]string{start}); offered {
		return nil, false
	}
	return &Call{Tool: search.name, Args: map[string]any{
		"query": "select:" + start + ",mcp__rgit__research_status,mcp__rgit__research_report", "max_results": 5}}, true
}

// mcpTools are the client's names for rgit's tools.
type mcpTools struct {
	start, status, report tool
}

// findMCP finds rgit's tools among the offered ones.
func findMCP(t turn) (mcpTools, bool) {
	var m mcpTools
	for _, tl := range t.tools {
		if !strings.Contains(tl.namespace+"/"+tl.name, "rgit") {
			continue
		}
		switch logical(tl.name) {
		case "research_start":
			m.start = tl
		case "research_status":
			m.status = tl
		case "research_report":
			m.report = tl
		}
	}
	return m, m.start.name != "" && m.status.name != "" && m.report.name != ""
}

// logical is a tool's name without the client's server prefix.
func logical(name string) string {
	if i := strings.LastIndex(name, "research_"); i >= 0 {
		return name[i:]
	}
	return name
}

var (
	reStarted = regexp.MustCompile(`session ([a-z0-9][a-z0-9._-]*) on branch`)
	reTitle   = []*regexp.Regexp{
		regexp.MustCompile(`"title":"([^"\\]+)"`),
		regexp.MustCompile(`(?m)^# ([^\n]+?)\s*$`),
		regexp.MustCompile(`\\n# ([^\\"]+)\\n`),
	}
)

// step plays the next turn of the MCP script and names it ("start",
// "status", "report", "answer" or "error").
func (m mcpTools) step(t turn) (action, string) {
	// Only calls of rgit's tools count (Claude Code may have searched for
	// them first); the last result answers the last call.
	last, result := "", ""
	for _, c := range t.calls {
		if strings.HasPrefix(logical(c), "research_") {
			last = logical(c)
		}
	}
	if n := len(t.results); n > 0 && last != "" {
		result = t.results[n-1]
	}
	name := "how-do-tides-work"
	for _, r := range t.results {
		if mm := reStarted.FindStringSubmatch(r); mm != nil {
			name = mm[1]
		}
	}
	call := func(tl tool, args map[string]any) action {
		return action{call: &Call{Tool: tl.name, Namespace: tl.namespace, Args: args}}
	}
	switch {
	case last == "":
		return call(m.start, map[string]any{"topic": MCPTopic, "model": "mock", "breadth": 1, "depth": 0}), "start"
	case strings.Contains(result, "rgit: error:"):
		return action{text: "rgit could not do it. " + last + " answered: " + firstLine(result[strings.Index(result, "rgit: error:"):])}, "error"
	case last == "research_start":
		return call(m.status, map[string]any{"name": name, "wait_seconds": 45}), "status"
	case last == "research_status" && !strings.Contains(result, ": done") && !strings.Contains(result, `"state":"done"`) && len(t.calls) < 12:
		return call(m.status, map[string]any{"name": name, "wait_seconds": 45}), "status"
	case last == "research_status":
		return call(m.report, map[string]any{"name": name}), "report"
	}
	for _, re := range reTitle {
		if mm := re.FindStringSubmatch(result); mm != nil {
			return action{text: "The rgit report \"" + mm[1] + "\" answers it: the Moon's pull raises the tides."}, "answer"
		}
	}
	return action{text: "The report had no title: " + firstLine(result)}, "answer"
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// resultText reads a tool result's content as each API carries it: a
// string, an array of text blocks or parts, or an object whose "output"
// (Gemini CLI) or "content" holds the text.
func resultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var obj struct {
		Output  *string         `json:"output"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &obj) == nil && (obj.Output != nil || obj.Content != nil) {
		if obj.Output != nil {
			return *obj.Output
		}
		return resultText(obj.Content)
	}
	if t := openaiText(raw); strings.TrimSpace(t) != "" {
		return t
	}
	return string(raw)
}

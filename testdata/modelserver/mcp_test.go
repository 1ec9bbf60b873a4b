package modelserver

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestMCPScript plays each client's conversation with rgit's MCP tools:
// research_start of a mock session, research_status until it is done,
// research_report, then a final answer quoting the report's title, each
// call with the client's own tool names; and an error from research_start
// ends it with that error.
func TestMCPScript(t *testing.T) {
	srv := httptest.NewServer(New(nil))
	defer srv.Close()
	const (
		started = "started session how-do-tides-work on branch research/how-do-tides-work; it runs in the background.\n"
		running = "session how-do-tides-work (research/how-do-tides-work): running\n"
		done    = "session how-do-tides-work (research/how-do-tides-work): done\n"
		report  = "report of session how-do-tides-work: reports/how-do-tides-work/report.md\n\n# Research Report: How do tides work?\n\n## Executive Summary\n"
		refused = "rgit: error: research_start is not available yet: this rgit cannot run a session detached\nrgit: hint: ..."
	)
	type step struct{ result, want string }
	flows := [][]step{
		{{"", "research_start"}, {started, "research_status"}, {running, "research_status"}, {done, "research_report"},
			{report, `The rgit report "Research Report: How do tides work?"`}},
		{{"", "research_start"}, {refused, "research_start answered: rgit: error: research_start is not available yet"}},
	}
	for _, c := range []mcpClient{claudeMCP{}, codexMCP{}, geminiMCP{}} {
		t.Run(c.name(), func(t *testing.T) {
			for _, flow := range flows {
				history, last := c.prompt(), ""
				for i, s := range flow {
					if s.result != "" {
						history = c.result(history, last, s.result)
					}
					name, args, text := c.turn(t, srv.URL, history)
					if !strings.HasPrefix(s.want, "research_") || strings.Contains(s.want, " ") {
						if name != "" || !strings.Contains(text, s.want) {
							t.Errorf("step %d: call %q, text %q; want a text with %q", i, name, text, s.want)
						}
						continue
					}
					if name != c.tool(s.want) {
						t.Fatalf("step %d: call %q, text %q; want a call of %s", i, name, text, c.tool(s.want))
					}
					if s.want == "research_start" && (args["topic"] != MCPTopic || args["model"] != "mock" || args["depth"] != 0.0) {
						t.Errorf("research_start arguments %v", args)
					}
					if s.want != "research_start" && args["name"] != "how-do-tides-work" {
						t.Errorf("%s arguments %v", name, args)
					}
					history, last = c.call(history, name, args), name
				}
			}
		})
	}
}

// mcpClient is one API's shape of rgit's MCP tools and their results.
type mcpClient interface {
	name() string
	tool(logical string) string // the client's name for a tool
	prompt() []any              // the conversation's first message
	// turn posts the conversation and returns the call made (its name and
	// arguments) or the final text.
	turn(t *testing.T, url string, history []any) (name string, args map[string]any, text string)
	call(history []any, name string, args map[string]any) []any // the model's call
	result(history []any, name, text string) []any              // the tool's result
}

func postJSON(t *testing.T, url string, body any) map[string]any {
	t.Helper()
	resp := post(t, url, "k", body)
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: %v\n%s", url, err, data)
	}
	return m
}

func nameSchema() map[string]any {
	return map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}
}

var rgitTools = []string{"research_start", "research_status", "research_report", "research_list", "research_cancel", "research_resume"}

// TestMCPToolSearch: Claude Code defers MCP tools behind ToolSearch; the
// script loads rgit's with a "select:" query, then calls research_start.
func TestMCPToolSearch(t *testing.T) {
	srv := httptest.NewServer(New(nil))
	defer srv.Close()
	search := map[string]any{"name": "ToolSearch", "input_schema": map[string]any{"type": "object", "properties": map[string]any{
		"query": map[string]any{"type": "string"}, "max_results": map[string]any{"type": "number"}}}}
	history := []any{map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "text", "text": "<system-reminder>Deferred tools:\nWebFetch\nmcp__rgit__research_list\nmcp__rgit__research_start\n</system-reminder>"},
		map[string]any{"type": "text", "text": "Use rgit to research: How do tides work?"}}}}
	m := postJSON(t, srv.URL+"/v1/messages", map[string]any{"model": "m", "messages": history, "tools": []any{search}})
	b := m["content"].([]any)[0].(map[string]any)
	if b["name"] != "ToolSearch" || b["input"].(map[string]any)["query"] != "select:mcp__rgit__research_start,mcp__rgit__research_status,mcp__rgit__research_report" {
		t.Fatalf("first answer %v, want a ToolSearch select of rgit's tools", b)
	}
	history = append(history,
		map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "toolu_1", "name": "ToolSearch", "input": b["input"]}}},
		map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_1",
			"content": []any{map[string]any{"type": "tool_reference", "tool_name": "mcp__rgit__research_start"}}}}})
	tools := []any{search}
	for _, n := range rgitTools {
		tools = append(tools, map[string]any{"name": "mcp__rgit__" + n, "input_schema": nameSchema()})
	}
	m = postJSON(t, srv.URL+"/v1/messages", map[string]any{"model": "m", "messages": history, "tools": tools})
	if b := m["content"].([]any)[0].(map[string]any); b["name"] != "mcp__rgit__research_start" {
		t.Errorf("after the search: %v, want a call of mcp__rgit__research_start", b)
	}
}

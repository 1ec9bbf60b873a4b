package modelserver

import (
	"encoding/json"
	"testing"
)

// The three clients as the reference (agent-clis.md, section 7) describes
// their requests: tool names, calls and how a result comes back.

type claudeMCP struct{}

func (claudeMCP) name() string         { return "claude" }
func (claudeMCP) tool(n string) string { return "mcp__rgit__" + n }
func (claudeMCP) prompt() []any {
	return []any{map[string]any{"role": "user", "content": "Research how tides work with rgit."}}
}
func (c claudeMCP) turn(t *testing.T, url string, history []any) (string, map[string]any, string) {
	tools := []any{map[string]any{"name": "Bash", "input_schema": map[string]any{"type": "object"}}}
	for _, n := range rgitTools {
		tools = append(tools, map[string]any{"name": c.tool(n), "input_schema": nameSchema()})
	}
	m := postJSON(t, url+"/v1/messages", map[string]any{"model": "claude-sonnet-4-5", "messages": history, "tools": tools})
	b := m["content"].([]any)[0].(map[string]any)
	if b["type"] == "tool_use" {
		return b["name"].(string), b["input"].(map[string]any), ""
	}
	return "", nil, b["text"].(string)
}
func (claudeMCP) call(h []any, name string, args map[string]any) []any {
	return append(h, map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "toolu_" + name, "name": name, "input": args}}})
}
func (claudeMCP) result(h []any, name, text string) []any {
	return append(h, map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_" + name,
		"content": []any{map[string]any{"type": "text", "text": text}}}}})
}

// codexMCP: a namespace tool; calls name the namespace and the tool; the
// result comes back with a "Wall time" part first.
type codexMCP struct{}

func (codexMCP) name() string         { return "codex" }
func (codexMCP) tool(n string) string { return n }
func (codexMCP) prompt() []any {
	return []any{map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": "Research how tides work with rgit."}}}}
}
func (codexMCP) turn(t *testing.T, url string, history []any) (string, map[string]any, string) {
	var sub []any
	for _, n := range rgitTools {
		sub = append(sub, map[string]any{"type": "function", "name": n, "parameters": nameSchema()})
	}
	tools := []any{map[string]any{"type": "function", "name": "exec_command", "parameters": map[string]any{"type": "object"}},
		map[string]any{"type": "namespace", "name": "mcp__rgit", "tools": sub}}
	m := postJSON(t, url+"/v1/responses", map[string]any{"model": "scripted", "input": history, "tools": tools})
	item := m["output"].([]any)[0].(map[string]any)
	if item["type"] == "function_call" {
		if item["namespace"] != "mcp__rgit" {
			t.Errorf("call %v without the namespace", item)
		}
		var args map[string]any
		_ = json.Unmarshal([]byte(item["arguments"].(string)), &args)
		return item["name"].(string), args, ""
	}
	return "", nil, item["content"].([]any)[0].(map[string]any)["text"].(string)
}
func (codexMCP) call(h []any, name string, args map[string]any) []any {
	b, _ := json.Marshal(args)
	return append(h, map[string]any{"type": "function_call", "namespace": "mcp__rgit", "name": name, "call_id": "call_" + name, "arguments": string(b)})
}
func (codexMCP) result(h []any, name, text string) []any {
	return append(h, map[string]any{"type": "function_call_output", "call_id": "call_" + name, "output": []any{
		map[string]any{"type": "input_text", "text": "Wall time: 0.0 seconds\nOutput:"}, map[string]any{"type": "input_text", "text": text}}})
}

// geminiMCP: mcp_rgit_<tool>; the result is response.output, wrapped.
type geminiMCP struct{}

func (geminiMCP) name() string         { return "gemini" }
func (geminiMCP) tool(n string) string { return "mcp_rgit_" + n }
func (geminiMCP) prompt() []any {
	return []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": "Research how tides work with rgit."}}}}
}
func (g geminiMCP) turn(t *testing.T, url string, history []any) (string, map[string]any, string) {
	var decls []any
	for _, n := range rgitTools {
		decls = append(decls, map[string]any{"name": g.tool(n), "parametersJsonSchema": nameSchema()})
	}
	m := postJSON(t, url+"/v1beta/models/gemini-2.5-pro:generateContent", map[string]any{"contents": history,
		"tools": []any{map[string]any{"functionDeclarations": decls}}})
	part := m["candidates"].([]any)[0].(map[string]any)["content"].(map[string]any)["parts"].([]any)[0].(map[string]any)
	if fc, ok := part["functionCall"].(map[string]any); ok {
		return fc["name"].(string), fc["args"].(map[string]any), ""
	}
	return "", nil, part["text"].(string)
}
func (geminiMCP) call(h []any, name string, args map[string]any) []any {
	return append(h, map[string]any{"role": "model", "parts": []any{map[string]any{"functionCall": map[string]any{"name": name, "args": args}}}})
}
func (geminiMCP) result(h []any, name, text string) []any {
	return append(h, map[string]any{"role": "user", "parts": []any{map[string]any{"functionResponse": map[string]any{"name": name,
		"response": map[string]any{"output": "<untrusted_context>\n" + text + "\n</untrusted_context>"}}}}})
}

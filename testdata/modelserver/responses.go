package modelserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// responsesRequest is the part of an OpenAI Responses API request (Codex
// CLI's only wire API) the script reads.
type responsesRequest struct {
	Model        string `json:"model"`
	Instructions string `json:"instructions"`
	Input        []struct {
		Type    string          `json:"type"`
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
		Name    string          `json:"name"`
		Output  json.RawMessage `json:"output"`
	} `json:"input"`
	Tools  []responsesTool `json:"tools"`
	Stream bool            `json:"stream"`
}

// responsesTool is a function, or a namespace of them (how Codex offers an
// MCP server's tools).
type responsesTool struct {
	Type       string          `json:"type"`
	Name       string          `json:"name"`
	Parameters map[string]any  `json:"parameters"`
	Tools      []responsesTool `json:"tools"`
}

func (s *Server) responses(w http.ResponseWriter, body []byte, req *Request) {
	var rr responsesRequest
	if err := json.Unmarshal(body, &rr); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{"message": "decode request: " + err.Error(), "type": "invalid_request_error"}})
		return
	}
	t := turn{system: rr.Instructions + "\n"}
	for _, in := range rr.Input {
		switch {
		case in.Type == "function_call" || in.Type == "custom_tool_call":
			t.calls = append(t.calls, in.Name)
		case in.Type == "function_call_output" || in.Type == "custom_tool_call_output":
			t.results = append(t.results, resultText(in.Output))
		case in.Role == "user":
			t.addUser(openaiText(in.Content))
		case in.Role == "developer" || in.Role == "system":
			t.system += openaiText(in.Content) + "\n"
		}
	}
	for _, tl := range rr.Tools {
		for _, sub := range tl.Tools {
			t.tools = append(t.tools, tool{name: sub.Name, namespace: tl.Name, props: schemaProps(sub.Parameters)})
		}
		if tl.Name != "" && tl.Type != "namespace" {
			t.tools = append(t.tools, tool{name: tl.Name, props: schemaProps(tl.Parameters)})
		}
	}
	req.Tools = t.toolNames()
	model := s.modelName(rr.Model)
	resp := map[string]any{"id": fmt.Sprintf("resp_%d", time.Now().UnixNano()), "object": "response",
		"created_at": time.Now().Unix(), "model": model, "status": "in_progress", "output": []any{}}
	if f, ok := s.nextFailure(); ok {
		if !f.Truncate {
			writeFailure(w, "openai", f, req.Header, req)
			return
		}
		req.Answer = "truncated"
		ev := newEventWriter(w)
		ev.send("response.created", map[string]any{"sequence_number": 0, "response": resp})
		panic(http.ErrAbortHandler) // cut the connection mid-stream
	}
	act, job := s.script.decide(t)
	req.Job = job
	var item map[string]any
	if act.call != nil {
		args, _ := json.Marshal(act.call.Args)
		item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%d", time.Now().UnixNano()),
			"call_id": fmt.Sprintf("call_%d", time.Now().UnixNano()), "name": act.call.Tool,
			"arguments": string(args), "status": "completed"}
		if act.call.Namespace != "" {
			item["namespace"] = act.call.Namespace
		}
		req.Answer = "tool:" + act.call.Tool
	} else {
		item = map[string]any{"type": "message", "id": fmt.Sprintf("msg_%d", time.Now().UnixNano()), "role": "assistant",
			"status": "completed", "content": []any{map[string]any{"type": "output_text", "text": act.text, "annotations": []any{}}}}
		req.Answer = "text"
	}
	done := map[string]any{}
	for k, v := range resp {
		done[k] = v
	}
	done["status"], done["output"] = "completed", []any{item}
	done["usage"] = map[string]any{"input_tokens": tokens(len(body)), "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": tokens(len(act.text) + 64), "output_tokens_details": map[string]any{"reasoning_tokens": 0},
		"total_tokens": tokens(len(body)) + tokens(len(act.text)+64)}
	if !rr.Stream {
		writeJSON(w, http.StatusOK, done)
		return
	}
	ev := newEventWriter(w)
	ev.send("response.created", map[string]any{"sequence_number": 0, "response": resp})
	ev.send("response.output_item.added", map[string]any{"sequence_number": 1, "output_index": 0, "item": item})
	if act.call == nil {
		ev.send("response.output_text.delta", map[string]any{"sequence_number": 2, "item_id": item["id"],
			"output_index": 0, "content_index": 0, "delta": act.text})
	}
	ev.send("response.output_item.done", map[string]any{"sequence_number": 3, "output_index": 0, "item": item})
	ev.send("response.completed", map[string]any{"sequence_number": 4, "response": done})
}

package modelserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// messagesRequest is the part of an Anthropic Messages request the script
// reads. system and content are a string or an array of blocks.
type messagesRequest struct {
	Model    string          `json:"model"`
	System   json.RawMessage `json:"system"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name        string         `json:"name"`
		InputSchema map[string]any `json:"input_schema"`
	} `json:"tools"`
	Stream bool `json:"stream"`
}

// block is one content block; only the fields the script reads.
type block struct {
	Type    string          `json:"type"`
	Text    string          `json:"text"`
	Name    string          `json:"name"`
	Content json.RawMessage `json:"content"` // a tool_result's
}

func blocks(raw json.RawMessage) []block {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []block{{Type: "text", Text: s}}
	}
	var bs []block
	_ = json.Unmarshal(raw, &bs)
	return bs
}

func (s *Server) messages(w http.ResponseWriter, body []byte, req *Request) {
	var mr messagesRequest
	if err := json.Unmarshal(body, &mr); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"type": "error", "error": map[string]any{"type": "invalid_request_error", "message": "decode request: " + err.Error()}})
		return
	}
	var t turn
	for _, b := range blocks(mr.System) {
		t.system += b.Text + "\n"
	}
	for _, m := range mr.Messages {
		var text string
		toolResult := false
		for _, b := range blocks(m.Content) {
			switch {
			case b.Type == "text":
				text += b.Text + "\n"
			case b.Type == "tool_result":
				toolResult = true
				t.results = append(t.results, resultText(b.Content))
			case m.Role == "assistant" && b.Type == "tool_use":
				t.calls = append(t.calls, b.Name)
			}
		}
		// Claude Code may send reminders next to a tool result: that
		// message answers a call, it is not a new prompt.
		switch {
		case m.Role == "user" && !toolResult:
			t.addUser(text)
		case m.Role == "system": // Claude Code 2.1.3xx sends one, naming its deferred tools
			t.system += text
		}
	}
	for _, tl := range mr.Tools {
		t.tools = append(t.tools, tool{name: tl.Name, props: schemaProps(tl.InputSchema)})
	}
	req.Tools = t.toolNames()
	model := s.modelName(mr.Model)
	if f, ok := s.nextFailure(); ok {
		if !f.Truncate {
			writeFailure(w, "anthropic", f, req.Header, req)
			return
		}
		req.Answer = "truncated"
		ev := newEventWriter(w)
		ev.send("message_start", map[string]any{"message": message(model, []any{}, nil, tokens(len(body)), 1)})
		ev.send("content_block_start", map[string]any{"index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		ev.send("content_block_delta", map[string]any{"index": 0, "delta": map[string]any{"type": "text_delta", "text": "Partial answer"}})
		panic(http.ErrAbortHandler) // cut the connection mid-stream
	}
	act, job := s.script.decide(t)
	req.Job = job
	in, out := tokens(len(body)), tokens(len(act.text)+64)
	content := map[string]any{"type": "text", "text": act.text}
	stop := "end_turn"
	req.Answer = "text"
	if act.call != nil {
		content = map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d", time.Now().UnixNano()), "name": act.call.Tool, "input": act.call.Args}
		stop = "tool_use"
		req.Answer = "tool:" + act.call.Tool
	}
	if !mr.Stream {
		writeJSON(w, http.StatusOK, message(model, []any{content}, stop, in, out))
		return
	}
	ev := newEventWriter(w)
	ev.send("message_start", map[string]any{"message": message(model, []any{}, nil, in, 1)})
	if act.call != nil {
		args, _ := json.Marshal(act.call.Args)
		half := len(args) / 2
		start := map[string]any{"type": "tool_use", "id": content["id"], "name": act.call.Tool, "input": map[string]any{}}
		ev.send("content_block_start", map[string]any{"index": 0, "content_block": start})
		for _, part := range []string{string(args[:half]), string(args[half:])} {
			ev.send("content_block_delta", map[string]any{"index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": part}})
		}
	} else {
		ev.send("content_block_start", map[string]any{"index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		half := len(act.text) / 2
		for _, part := range []string{act.text[:half], act.text[half:]} {
			ev.send("content_block_delta", map[string]any{"index": 0, "delta": map[string]any{"type": "text_delta", "text": part}})
		}
	}
	ev.send("content_block_stop", map[string]any{"index": 0})
	ev.send("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": out}})
	ev.send("message_stop", map[string]any{})
}

// message is an Anthropic message object; stop is nil while streaming.
func message(model string, content []any, stop any, in, out int) map[string]any {
	return map[string]any{"id": fmt.Sprintf("msg_%d", time.Now().UnixNano()), "type": "message", "role": "assistant",
		"model": model, "content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": in, "output_tokens": out,
			"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}
}

// eventWriter writes Anthropic server-sent events: "event:" and "data:".
type eventWriter struct{ w http.ResponseWriter }

func newEventWriter(w http.ResponseWriter) *eventWriter {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return &eventWriter{w: w}
}

func (e *eventWriter) send(typ string, fields map[string]any) {
	fields["type"] = typ
	b, _ := json.Marshal(fields)
	fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", typ, b)
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
}

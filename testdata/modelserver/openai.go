package modelserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// chatRequest is the part of an OpenAI chat completions request the
// script reads.
type chatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role      string          `json:"role"`
		Content   json.RawMessage `json:"content"`
		ToolCalls []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name       string         `json:"name"`
			Parameters map[string]any `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
	Stream        bool `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// openaiText reads a content that is a string or an array of parts.
func openaiText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text + "\n")
	}
	return b.String()
}

func (s *Server) chatCompletions(w http.ResponseWriter, body []byte, req *Request) {
	var cr chatRequest
	if err := json.Unmarshal(body, &cr); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{"message": "decode request: " + err.Error(), "type": "invalid_request_error"}})
		return
	}
	var t turn
	for _, m := range cr.Messages {
		switch m.Role {
		case "system", "developer":
			t.system += openaiText(m.Content) + "\n"
		case "user":
			t.addUser(openaiText(m.Content))
		case "assistant":
			for _, c := range m.ToolCalls {
				t.calls = append(t.calls, c.Function.Name)
			}
		}
	}
	for _, tl := range cr.Tools {
		t.tools = append(t.tools, tool{name: tl.Function.Name, props: schemaProps(tl.Function.Parameters)})
	}
	req.Tools = t.toolNames()
	if f, ok := s.nextFailure(); ok {
		if !f.Truncate {
			writeFailure(w, "openai", f, req.Header, req)
			return
		}
		req.Answer = "truncated"
		c := newChunker(w, s.modelName(cr.Model))
		c.send(map[string]any{"role": "assistant", "content": "Partial answer"}, nil)
		panic(http.ErrAbortHandler) // cut the connection mid-stream
	}
	if s.script.RejectTools && len(t.tools) > 0 {
		req.Answer = "fail:400"
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{
			"message": fmt.Sprintf("registry.ollama.ai/library/%s does not support tools", s.modelName(cr.Model)), "type": "api_error"}})
		return
	}
	act, job := s.script.decide(t)
	req.Job = job
	usage := map[string]any{"prompt_tokens": tokens(len(body)), "completion_tokens": tokens(len(act.text) + 64), "total_tokens": tokens(len(body)) + tokens(len(act.text)+64)}
	var call map[string]any
	finish := "stop"
	req.Answer = "text"
	if act.call != nil {
		args, _ := json.Marshal(act.call.Args)
		call = map[string]any{"index": 0, "id": fmt.Sprintf("call_%d", time.Now().UnixNano()), "type": "function",
			"function": map[string]any{"name": act.call.Tool, "arguments": string(args)}}
		finish = "tool_calls"
		req.Answer = "tool:" + act.call.Tool
	}
	if !cr.Stream {
		msg := map[string]any{"role": "assistant", "content": act.text}
		if call != nil {
			msg["tool_calls"] = []any{call}
		}
		writeJSON(w, http.StatusOK, map[string]any{"id": "chatcmpl-scripted", "object": "chat.completion",
			"created": time.Now().Unix(), "model": s.modelName(cr.Model),
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	c := newChunker(w, s.modelName(cr.Model))
	c.send(map[string]any{"role": "assistant", "content": ""}, nil)
	if call != nil {
		// Split the arguments in two fragments, as OpenAI and vLLM do, so
		// clients must join them by index.
		args := call["function"].(map[string]any)["arguments"].(string)
		half := len(args) / 2
		first := map[string]any{"index": 0, "id": call["id"], "type": "function",
			"function": map[string]any{"name": act.call.Tool, "arguments": args[:half]}}
		c.send(map[string]any{"tool_calls": []any{first}}, nil)
		c.send(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "function": map[string]any{"arguments": args[half:]}}}}, nil)
	} else {
		half := len(act.text) / 2
		c.send(map[string]any{"content": act.text[:half]}, nil)
		c.send(map[string]any{"content": act.text[half:]}, nil)
	}
	c.send(map[string]any{}, finish)
	if cr.StreamOptions != nil && cr.StreamOptions.IncludeUsage {
		c.event(map[string]any{"choices": []any{}, "usage": usage})
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	c.flush()
}

// chunker writes chat.completion.chunk server-sent events.
type chunker struct {
	w     http.ResponseWriter
	model string
}

func newChunker(w http.ResponseWriter, model string) *chunker {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return &chunker{w: w, model: model}
}

func (c *chunker) send(delta map[string]any, finish any) {
	c.event(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
}

func (c *chunker) event(fields map[string]any) {
	fields["id"] = "chatcmpl-scripted"
	fields["object"] = "chat.completion.chunk"
	fields["created"] = time.Now().Unix()
	fields["model"] = c.model
	b, _ := json.Marshal(fields)
	fmt.Fprintf(c.w, "data: %s\n\n", b)
	c.flush()
}

func (c *chunker) flush() {
	if f, ok := c.w.(http.Flusher); ok {
		f.Flush()
	}
}

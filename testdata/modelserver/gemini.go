package modelserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// geminiRequest is the part of a Gemini generateContent request (Gemini
// CLI) the script reads.
type geminiRequest struct {
	Contents []struct {
		Role  string       `json:"role"`
		Parts []geminiPart `json:"parts"`
	} `json:"contents"`
	SystemInstruction *struct {
		Parts []geminiPart `json:"parts"`
	} `json:"systemInstruction"`
	Tools []struct {
		FunctionDeclarations []struct {
			Name                 string         `json:"name"`
			Parameters           map[string]any `json:"parameters"`
			ParametersJSONSchema map[string]any `json:"parametersJsonSchema"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
}

type geminiPart struct {
	Text         string `json:"text"`
	FunctionCall *struct {
		Name string `json:"name"`
	} `json:"functionCall"`
	FunctionResponse json.RawMessage `json:"functionResponse"`
}

// gemini answers POST /v1beta/models/{model}:streamGenerateContent (one
// SSE data event) and :generateContent (plain JSON).
func (s *Server) gemini(w http.ResponseWriter, path string, body []byte, req *Request) {
	var gr geminiRequest
	if err := json.Unmarshal(body, &gr); err != nil {
		writeJSON(w, http.StatusBadRequest, geminiError(http.StatusBadRequest, "decode request: "+err.Error()))
		return
	}
	var t turn
	if gr.SystemInstruction != nil {
		for _, p := range gr.SystemInstruction.Parts {
			t.system += p.Text + "\n"
		}
	}
	for _, c := range gr.Contents {
		var text string
		response := false
		for _, p := range c.Parts {
			switch {
			case p.FunctionCall != nil:
				t.calls = append(t.calls, p.FunctionCall.Name)
			case p.FunctionResponse != nil:
				response = true
				var fr struct {
					Response json.RawMessage `json:"response"`
				}
				_ = json.Unmarshal(p.FunctionResponse, &fr)
				t.results = append(t.results, resultText(fr.Response))
			case !strings.HasPrefix(strings.TrimSpace(p.Text), "<session_context>"):
				text += p.Text + "\n"
			}
		}
		if c.Role == "user" && !response {
			t.addUser(text)
		}
	}
	for _, tl := range gr.Tools {
		for _, fd := range tl.FunctionDeclarations {
			schema := fd.ParametersJSONSchema
			if schema == nil {
				schema = fd.Parameters
			}
			t.tools = append(t.tools, tool{name: fd.Name, props: schemaProps(schema)})
		}
	}
	req.Tools = t.toolNames()
	stream := strings.HasSuffix(path, ":streamGenerateContent")
	if f, ok := s.nextFailure(); ok {
		if !f.Truncate {
			req.Answer = fmt.Sprintf("fail:%d", f.Status)
			msg := strings.ReplaceAll(f.Message, "{key}", presentedKey(req.Header))
			writeJSON(w, f.Status, geminiError(f.Status, msg))
			return
		}
		req.Answer = "truncated"
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		fmt.Fprint(w, "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"Partial")
		panic(http.ErrAbortHandler) // cut the connection mid-event
	}
	act, job := s.script.decide(t)
	req.Job = job
	part := map[string]any{"text": act.text}
	req.Answer = "text"
	if act.call != nil {
		part = map[string]any{"functionCall": map[string]any{"name": act.call.Tool, "args": act.call.Args}}
		req.Answer = "tool:" + act.call.Tool
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}},
			"finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": tokens(len(body)), "candidatesTokenCount": tokens(len(act.text) + 64),
			"totalTokenCount": tokens(len(body)) + tokens(len(act.text)+64)},
		"modelVersion": s.modelName("scripted"),
	}
	if !stream {
		writeJSON(w, http.StatusOK, resp)
		return
	}
	b, _ := json.Marshal(resp)
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	fmt.Fprintf(w, "data: %s\n\n", b)
}

// geminiError is Google's error shape.
func geminiError(status int, msg string) map[string]any {
	name := map[int]string{400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED",
		429: "RESOURCE_EXHAUSTED", 500: "INTERNAL"}[status]
	return map[string]any{"error": map[string]any{"code": status, "message": msg, "status": name}}
}

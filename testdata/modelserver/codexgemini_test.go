package modelserver

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestResponsesWritesThroughShell plays Codex CLI: the only file tool is
// exec_command, so the server writes with a heredoc that bash runs.
func TestResponsesWritesThroughShell(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	srv := httptest.NewServer(New(nil))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "it's here", "progress", "kites.md")
	prompt := "## Your topic: Kites\n\n3. Write your findings to this file:\n\n   " + out + "\n"
	input := []any{
		map[string]any{"type": "message", "role": "developer", "content": []any{map[string]any{"type": "input_text", "text": "You are Codex."}}},
		map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": prompt}}},
	}
	tools := []any{
		map[string]any{"type": "function", "name": "exec_command", "parameters": map[string]any{"type": "object",
			"properties": map[string]any{"cmd": map[string]any{"type": "string"}, "workdir": map[string]any{"type": "string"}}}},
		map[string]any{"type": "web_search"},
	}
	var final string
	for turn := 0; final == "" && turn < 4; turn++ {
		resp := post(t, srv.URL+"/v1/responses", "k", map[string]any{"model": "scripted", "stream": true, "input": input, "tools": tools})
		var completed map[string]any
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var ev map[string]any
				if err := json.Unmarshal([]byte(d), &ev); err != nil {
					t.Fatal(err)
				}
				if ev["type"] == "response.completed" {
					completed = ev["response"].(map[string]any)
				}
			}
		}
		resp.Body.Close()
		if completed == nil || completed["status"] != "completed" || completed["usage"] == nil {
			t.Fatalf("no completed response with usage: %v", completed)
		}
		item := completed["output"].([]any)[0].(map[string]any)
		switch item["type"] {
		case "message":
			final = item["content"].([]any)[0].(map[string]any)["text"].(string)
		case "function_call":
			var args map[string]string
			if err := json.Unmarshal([]byte(item["arguments"].(string)), &args); err != nil {
				t.Fatal(err)
			}
			if b, err := exec.Command("bash", "-c", args["cmd"]).CombinedOutput(); err != nil {
				t.Fatalf("heredoc failed: %v\n%s", err, b)
			}
			input = append(input, item, map[string]any{"type": "function_call_output", "call_id": item["call_id"], "output": "Process exited with code 0"})
		}
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := Content(Recognise(prompt)); string(got) != want {
		t.Errorf("written through the shell:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(final, "Wrote "+out) {
		t.Errorf("final text %q", final)
	}
}

// TestGeminiFunctionCalls plays Gemini CLI: write_file through a
// functionCall, then text after the functionResponse.
func TestGeminiFunctionCalls(t *testing.T) {
	ms := New(nil)
	srv := httptest.NewServer(ms)
	defer srv.Close()
	out := "/nonexistent/ws/review.json"
	contents := []any{map[string]any{"role": "user", "parts": []any{
		map[string]any{"text": "<session_context>cwd /nonexistent/ws/a.md</session_context>"},
		map[string]any{"text": "Write it to this file as a single JSON object:\n\n   " + out + "\n"},
	}}}
	tools := []any{map[string]any{"functionDeclarations": []any{
		map[string]any{"name": "read_file", "parametersJsonSchema": map[string]any{"properties": map[string]any{"file_path": map[string]any{}}}},
		map[string]any{"name": "write_file", "parametersJsonSchema": map[string]any{"properties": map[string]any{"file_path": map[string]any{}, "content": map[string]any{}}}},
	}}}
	type answer struct {
		Candidates []struct {
			Content struct {
				Parts []struct {
					Text         string `json:"text"`
					FunctionCall *struct {
						Name string         `json:"name"`
						Args map[string]any `json:"args"`
					} `json:"functionCall"`
				} `json:"parts"`
			} `json:"content"`
		} `json:"candidates"`
		UsageMetadata struct {
			PromptTokenCount int `json:"promptTokenCount"`
		} `json:"usageMetadata"`
	}
	ask := func(path string) answer {
		resp := post(t, srv.URL+path, "g-key", map[string]any{"contents": contents, "tools": tools,
			"systemInstruction": map[string]any{"parts": []any{map[string]any{"text": "You are Gemini CLI."}}}})
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var a answer
		if err := json.Unmarshal([]byte(strings.TrimSpace(strings.TrimPrefix(string(b), "data: "))), &a); err != nil {
			t.Fatalf("answer %s: %v", b, err)
		}
		return a
	}
	a := ask("/v1beta/models/gemini-2.5-pro:streamGenerateContent")
	fc := a.Candidates[0].Content.Parts[0].FunctionCall
	if fc == nil || fc.Name != "write_file" || fc.Args["file_path"] != out || !strings.Contains(fc.Args["content"].(string), `"verdict":"accept"`) {
		t.Fatalf("first answer = %+v", a)
	}
	if a.UsageMetadata.PromptTokenCount == 0 {
		t.Error("no usage metadata")
	}
	contents = append(contents,
		map[string]any{"role": "model", "parts": []any{map[string]any{"functionCall": map[string]any{"name": "write_file", "args": fc.Args}}}},
		map[string]any{"role": "user", "parts": []any{map[string]any{"functionResponse": map[string]any{"name": "write_file", "response": map[string]any{"output": "ok"}}}}})
	a = ask("/v1beta/models/gemini-2.5-pro:generateContent")
	if txt := a.Candidates[0].Content.Parts[0].Text; !strings.Contains(txt, `"verdict":"accept"`) {
		t.Errorf("final answer = %q, want the verdict", txt)
	}
	if reqs := ms.Requests(); len(reqs) != 2 || reqs[0].API != "gemini" || reqs[0].Job.Output != out {
		t.Errorf("log = %+v", reqs)
	}
}

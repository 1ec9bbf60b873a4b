package modelserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// claudeTools is the shape of Claude Code's file tools in a request.
var claudeTools = []map[string]any{
	{"name": "Bash", "input_schema": map[string]any{"type": "object", "properties": map[string]any{"command": map[string]any{"type": "string"}}}},
	{"name": "Read", "input_schema": map[string]any{"type": "object", "properties": map[string]any{"file_path": map[string]any{"type": "string"}}}},
	{"name": "Write", "input_schema": map[string]any{"type": "object", "properties": map[string]any{
		"file_path": map[string]any{"type": "string"}, "content": map[string]any{"type": "string"}}}},
}

// sseEvent is one Anthropic server-sent event.
type sseEvent struct {
	name string
	data map[string]any
}

func readEvents(t *testing.T, r io.Reader) []sseEvent {
	t.Helper()
	var evs []sseEvent
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	var name string
	for sc.Scan() {
		line := sc.Text()
		if n, ok := strings.CutPrefix(line, "event: "); ok {
			name = n
		}
		if d, ok := strings.CutPrefix(line, "data: "); ok {
			var m map[string]any
			if err := json.Unmarshal([]byte(d), &m); err != nil {
				t.Fatalf("bad data line %q: %v", d, err)
			}
			if m["type"] != name {
				t.Errorf("event %q carries type %v", name, m["type"])
			}
			evs = append(evs, sseEvent{name, m})
		}
	}
	return evs
}

// claudeTurn posts one Claude-Code-like request and returns the assembled
// content block: a tool_use (name, input) or text.
func claudeTurn(t *testing.T, url string, messages []any) (kind, name string, input map[string]any, text string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{
		"model": "claude-sonnet-4-5", "max_tokens": 32000, "stream": true,
		"system":   []any{map[string]any{"type": "text", "text": "You are Claude Code. Write tools can create files."}},
		"messages": messages, "tools": claudeTools,
	})
	req, _ := http.NewRequest(http.MethodPost, url+"/v1/messages?beta=true", bytes.NewReader(body))
	req.Header.Set("X-Api-Key", "k")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	evs := readEvents(t, resp.Body)
	var names []string
	var partial strings.Builder
	for _, ev := range evs {
		names = append(names, ev.name)
		switch ev.name {
		case "content_block_start":
			cb := ev.data["content_block"].(map[string]any)
			kind, _ = cb["type"].(string)
			name, _ = cb["name"].(string)
		case "content_block_delta":
			d := ev.data["delta"].(map[string]any)
			if s, ok := d["partial_json"].(string); ok {
				partial.WriteString(s)
			}
			if s, ok := d["text"].(string); ok {
				text += s
			}
		case "message_delta":
			stop := ev.data["delta"].(map[string]any)["stop_reason"]
			if want := map[string]string{"tool_use": "tool_use", "text": "end_turn"}[kind]; stop != want {
				t.Errorf("stop_reason %v for a %s block", stop, kind)
			}
			if ev.data["usage"].(map[string]any)["output_tokens"] == nil {
				t.Error("message_delta without usage.output_tokens")
			}
		}
	}
	want := []string{"message_start", "content_block_start", "content_block_delta", "content_block_delta", "content_block_stop", "message_delta", "message_stop"}
	if !slices.Equal(names, want) {
		t.Errorf("events = %v, want %v", names, want)
	}
	if kind == "tool_use" {
		if err := json.Unmarshal([]byte(partial.String()), &input); err != nil {
			t.Fatalf("joined partial_json is not JSON: %v", err)
		}
	}
	return kind, name, input, text
}

// TestAnthropicWritesWithClientTool plays Claude Code's side: each tool_use
// is executed on disk and answered with a tool_result, until a text turn.
func TestAnthropicWritesWithClientTool(t *testing.T) {
	cases := []struct {
		name     string
		existing bool // output already on disk: Read comes before Write
		rel      string
		final    string
		tools    []string
	}{
		{"research", false, "progress/solar-sails.md", "Wrote ", []string{"Write"}},
		{"review", false, "review.json", `"verdict":"accept"`, []string{"Write"}},
		{"revise existing report", true, "report.md", "Wrote ", []string{"Read", "Write"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(New(nil))
			defer srv.Close()
			out := filepath.Join(t.TempDir(), tc.rel)
			if tc.existing {
				if err := os.WriteFile(out, []byte("# Report\n\n## Executive Summary\nOld.\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			prompt := "Topic: Solar sails\nRevise if needed. End with ## Subtopics.\nWrite your output to: " + out + "\n"
			if tc.name == "review" {
				prompt = "Review the findings.\nWrite your output to: " + out + "\n"
			}
			messages := []any{map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "text", "text": "<system-reminder>CLAUDE.md at /root/CLAUDE.md</system-reminder>"},
				map[string]any{"type": "text", "text": prompt, "cache_control": map[string]any{"type": "ephemeral"}},
			}}}
			var used []string
			for turn := 0; ; turn++ {
				if turn > 5 {
					t.Fatal("no final text after 5 turns")
				}
				kind, name, input, text := claudeTurn(t, srv.URL, messages)
				if kind == "text" {
					if !strings.Contains(text, tc.final) {
						t.Errorf("final text %q lacks %q", text, tc.final)
					}
					break
				}
				used = append(used, name)
				if input["file_path"] != out {
					t.Fatalf("%s file_path = %v, want %s", name, input["file_path"], out)
				}
				if name == "Write" {
					if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(out, []byte(input["content"].(string)), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				id := "toolu_" + name
				messages = append(messages,
					map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}}},
					map[string]any{"role": "user", "content": []any{
						map[string]any{"type": "tool_result", "tool_use_id": id, "content": "File created successfully at: " + out},
						map[string]any{"type": "text", "text": "<system-reminder>Write your output to: /elsewhere/x.md</system-reminder>"}}})
			}
			if !slices.Equal(used, tc.tools) {
				t.Errorf("tools used = %v, want %v", used, tc.tools)
			}
			got, _ := os.ReadFile(out)
			if tc.existing && !strings.Contains(string(got), "Old.") {
				t.Errorf("revise dropped the existing report:\n%s", got)
			}
			if len(got) == 0 {
				t.Error("nothing written")
			}
		})
	}
}

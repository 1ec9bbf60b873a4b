package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"bad verdict", []string{"-verdict", "maybe"}, "-verdict must be accept or reject"},
		{"extra argument", []string{"serve"}, `unexpected argument "serve"`},
		{"unknown flag", []string{"-port", "1"}, "flag provided but not defined: -port"},
		{"bad duration", []string{"-exit-after", "soon"}, "invalid value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(context.Background(), tt.args, &out, &errb)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if !strings.Contains(errb.String(), tt.want) {
				t.Errorf("stderr %q does not contain %q", errb.String(), tt.want)
			}
		})
	}
}

// startServer runs the command on a free port and returns its base URL, the
// log path and a stop function that returns the exit status.
func startServer(t *testing.T, extra ...string) (base, logPath string, stop func() int) {
	t.Helper()
	dir := t.TempDir()
	addrFile := filepath.Join(dir, "addr")
	logPath = filepath.Join(dir, "requests.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	args := append([]string{"-addr-file", addrFile, "-log", logPath}, extra...)
	code := make(chan int, 1)
	var out, errb bytes.Buffer
	go func() { code <- run(ctx, args, &out, &errb) }()
	// The addr file appears once the port is bound; give up after a while
	// rather than hang the test if the server never starts.
	for i := 0; ; i++ {
		b, err := os.ReadFile(addrFile)
		if err == nil {
			base = strings.TrimSpace(string(b))
			break
		}
		select {
		case c := <-code:
			t.Fatalf("server exited %d before listening: %s", c, errb.String())
		case <-time.After(10 * time.Millisecond):
		}
		if i > 1000 {
			t.Fatal("server did not write its address file")
		}
	}
	return base, logPath, func() int { cancel(); return <-code }
}

func TestServesChatCompletionsAndLogsWithoutKeys(t *testing.T) {
	const key = "sk-modelserver-test-SECRET"
	out := filepath.Join(t.TempDir(), ".research", "s", "research_plan.md")
	tests := []struct {
		name     string
		tools    []any
		wantTool string
	}{
		{"opencode write tool", []any{fn("write", "filePath", "content")}, "write"},
		{"rgit write_file tool", []any{fn("write_file", "path", "content")}, "write_file"},
		{"no tools", nil, ""},
	}
	base, logPath, stop := startServer(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := map[string]any{
				"model": "scripted",
				"messages": []any{
					map[string]any{"role": "system", "content": "You are a research agent."},
					map[string]any{"role": "user", "content": "Question: why is the sky blue?\nWrite your output to: " + out},
				},
			}
			if tt.tools != nil {
				req["tools"] = tt.tools
			}
			var got struct {
				Choices []struct {
					Message struct {
						Content   string `json:"content"`
						ToolCalls []struct {
							Function struct{ Name, Arguments string } `json:"function"`
						} `json:"tool_calls"`
					} `json:"message"`
				} `json:"choices"`
			}
			post(t, base+"/v1/chat/completions", key, req, &got)
			if len(got.Choices) != 1 {
				t.Fatalf("got %d choices, want 1", len(got.Choices))
			}
			msg := got.Choices[0].Message
			if tt.wantTool == "" {
				if !strings.Contains(msg.Content, "why is the sky blue?") || !strings.Contains(msg.Content, "(Depth: 0)") {
					t.Errorf("plain answer does not look like a plan: %q", msg.Content)
				}
				return
			}
			if len(msg.ToolCalls) != 1 || msg.ToolCalls[0].Function.Name != tt.wantTool {
				t.Fatalf("tool calls %+v, want one call of %s", msg.ToolCalls, tt.wantTool)
			}
			if !strings.Contains(msg.ToolCalls[0].Function.Arguments, out) {
				t.Errorf("arguments %s do not name the output %s", msg.ToolCalls[0].Function.Arguments, out)
			}
		})
	}
	if code := stop(); code != 0 {
		t.Errorf("exit %d after cancel, want 0", code)
	}
	logged, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(logged, []byte(key)) {
		t.Errorf("request log contains the API key:\n%s", logged)
	}
	var n int
	sc := bufio.NewScanner(bytes.NewReader(logged))
	for sc.Scan() {
		var e entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("log line %q: %v", sc.Text(), err)
		}
		if e.API != "openai" || e.Phase != "plan" || e.Output != out {
			t.Errorf("log entry %+v: want api openai, phase plan, output %s", e, out)
		}
		if len(e.Auth) != 1 || e.Auth[0] != "Authorization" {
			t.Errorf("log entry auth %v, want [Authorization]", e.Auth)
		}
		n++
	}
	if n != len(tests) {
		t.Errorf("logged %d requests, want %d", n, len(tests))
	}
}

func TestExitAfter(t *testing.T) {
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-exit-after", "20ms"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d, want 0; stderr %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "stopping after 20ms") {
		t.Errorf("stdout %q does not say why it stopped", out.String())
	}
}

func fn(name string, props ...string) map[string]any {
	p := map[string]any{}
	for _, n := range props {
		p[n] = map[string]any{"type": "string"}
	}
	return map[string]any{"type": "function", "function": map[string]any{
		"name": name, "parameters": map[string]any{"type": "object", "properties": p, "required": props}}}
}

func post(t *testing.T, url, key string, body, into any) {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %s", resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(into); err != nil {
		t.Fatal(err)
	}
}

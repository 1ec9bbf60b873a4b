package openai

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/testdata/modelserver"
)

// benchStream is a 400-chunk answer: streamed text, then one tool call
// whose arguments arrive in 200 fragments, then usage.
func benchStream() []byte {
	var b bytes.Buffer
	for i := range 200 {
		fmt.Fprintf(&b, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"word%d \"}}]}\n\n", i)
	}
	b.WriteString(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"write_file","arguments":""}}]}}]}` + "\n\n")
	for i := range 200 {
		fmt.Fprintf(&b, "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"frag%d\"}}]}}]}\n\n", i)
	}
	b.WriteString("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n")
	b.WriteString("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":7}}\n\ndata: [DONE]\n\n")
	return b.Bytes()
}

// BenchmarkReadStream measures parsing and assembling a streamed answer.
func BenchmarkReadStream(b *testing.B) {
	data := benchStream()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		rep, err := readStream(bytes.NewReader(data))
		if err != nil || len(rep.calls) != 1 {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadStreamBaseline is the floor readStream is compared with:
// scanning the same lines and decoding each chunk, with no assembly.
func BenchmarkReadStreamBaseline(b *testing.B) {
	data := benchStream()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			if d, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: ")); ok && d[0] == '{' {
				var c chunk
				if err := json.Unmarshal(d, &c); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

// benchServer serves the scripted model; each Run makes three model calls
// (list_files, write_file, final text).
func benchServer(b *testing.B) (*httptest.Server, agents.Task) {
	srv := httptest.NewServer(modelserver.New(&modelserver.Script{Before: []modelserver.Call{{Tool: "list_files", Args: map[string]any{}}}}))
	b.Cleanup(srv.Close)
	dir := b.TempDir()
	out := filepath.Join(dir, "progress", "t.md")
	return srv, agents.Task{Phase: agents.PhaseResearch, Dir: dir, Output: out,
		Prompt: "## Your topic: T\n\nWrite your findings to this file:\n\n   " + out + "\n"}
}

// BenchmarkRunPhase is one research phase end to end: three streamed model
// calls, a list_files and a write_file.
func BenchmarkRunPhase(b *testing.B) {
	srv, task := benchServer(b)
	a := New(Options{BaseURL: srv.URL + "/v1", Model: "m"})
	for b.Loop() {
		if _, err := a.Run(context.Background(), task); err != nil {
			b.Fatal(err)
		}
		if err := os.Remove(task.Output); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunPhaseBaseline is the floor for BenchmarkRunPhase: the same
// three requests posted raw, bodies read and discarded, and the same file
// written directly.
func BenchmarkRunPhaseBaseline(b *testing.B) {
	srv, task := benchServer(b)
	a := New(Options{BaseURL: srv.URL + "/v1", Model: "m"})
	ws, err := a.newWorkspace(task)
	if err != nil {
		b.Fatal(err)
	}
	bodies := make([][]byte, 3)
	msgs := []message{{Role: "system", Content: "s"}, {Role: "user", Content: task.Prompt}}
	for i := range bodies {
		bodies[i], _ = json.Marshal(chatRequest{Model: "m", Messages: msgs, Tools: ws.tools(), Stream: true,
			StreamOptions: &streamOptions{IncludeUsage: true}})
		msgs = append(msgs, message{Role: "assistant", ToolCalls: []toolCall{{ID: "c", Type: "function",
			Function: functionCall{Name: []string{"list_files", "write_file"}[min(i, 1)], Arguments: "{}"}}}},
			message{Role: "tool", ToolCallID: "c", Content: "ok"})
	}
	for b.Loop() {
		for _, body := range bodies {
			resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", bytes.NewReader(body))
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		if err := os.MkdirAll(filepath.Dir(task.Output), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(task.Output, []byte(strings.Repeat("x", 300)), 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.Remove(task.Output); err != nil {
			b.Fatal(err)
		}
	}
}

package claude

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents/proc"
)

// FuzzParse feeds arbitrary stream lines: the parser must never panic, and
// a stream without a result line must never count as a success.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"type":"system","subtype":"init","session_id":"s"}`))
	f.Add([]byte(`{"type":"result","subtype":"success","is_error":false,"result":"ok","usage":{"input_tokens":1}}`))
	f.Add([]byte(`{"type":"assistant","message":{"content":[{"type":"text","text":"hi"}]},"error":"rate_limit"}`))
	f.Add([]byte(`[SandboxDebug] not json`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var p parser
		p.Line(line)
		_, err := p.Finish(proc.Result{}, nil)
		if p.result == nil && err == nil {
			t.Fatal("success without a result line")
		}
	})
}

// streamLines is a claude stream-json run: init, 200 assistant and tool
// result events (some tool results 50 KiB long), and the result.
func streamLines() [][]byte {
	lines := [][]byte{[]byte(`{"type":"system","subtype":"init","session_id":"9408bea7-c831-4edd-9a00-e7475e63fb4b","tools":["Read","Write"],"model":"claude-opus-4-8"}`)}
	long := strings.Repeat("tool output ", 50<<10/12)
	for i := 0; i < 200; i++ {
		lines = append(lines, []byte(`{"type":"assistant","message":{"model":"claude-opus-4-8","content":[{"type":"text","text":"a paragraph of findings, with a citation [1]"}],"usage":{"input_tokens":2,"output_tokens":14}},"session_id":"9408bea7-c831-4edd-9a00-e7475e63fb4b"}`))
		content := "short"
		if i%10 == 0 {
			content = long
		}
		lines = append(lines, []byte(`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"`+content+`"}]},"session_id":"9408bea7-c831-4edd-9a00-e7475e63fb4b"}`))
	}
	return append(lines, []byte(`{"type":"result","subtype":"success","is_error":false,"result":"done","session_id":"9408bea7-c831-4edd-9a00-e7475e63fb4b","total_cost_usd":0.03,"usage":{"input_tokens":4,"output_tokens":98,"cache_read_input_tokens":5015}}`))
}

// BenchmarkParse runs the backend's parser over a stream;
// BenchmarkParseBaseline decodes the same lines into generic maps, the
// cost of reading the stream at all.
func BenchmarkParse(b *testing.B) {
	lines := streamLines()
	for b.Loop() {
		var p parser
		for _, l := range lines {
			p.Line(l)
		}
		if _, err := p.Finish(proc.Result{}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseBaseline(b *testing.B) {
	lines := streamLines()
	for b.Loop() {
		for _, l := range lines {
			var m map[string]any
			if err := json.Unmarshal(l, &m); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// The init line names the model Claude Code chose; the result carries it,
// so a session run with the CLI's default records the real model.
func TestParseReportsModel(t *testing.T) {
	var p parser
	for _, l := range streamLines() {
		p.Line(l)
	}
	res, err := p.Finish(proc.Result{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Model != "claude-opus-4-8" {
		t.Errorf("Model = %q, want claude-opus-4-8", res.Model)
	}
}

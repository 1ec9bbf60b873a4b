package claude

import (
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
		p.line(line)
		_, err := p.finish(proc.Result{}, nil)
		if p.result == nil && err == nil {
			t.Fatal("success without a result line")
		}
	})
}

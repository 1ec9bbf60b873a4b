package gemini

import (
	"testing"

	"github.com/rgit-dev/rgit/agents/proc"
)

// TestParseSources: a successful web_fetch is one Source per URL of its
// prompt, with the tool's output; a failed one is none.
func TestParseSources(t *testing.T) {
	var p parser
	for _, l := range []string{
		`{"type":"init","session_id":"s"}`,
		`{"type":"tool_use","tool_name":"web_fetch","tool_id":"f1","parameters":{"prompt":"Summarise https://example.org/a and http://127.0.0.1:9/b."}}`,
		`{"type":"tool_result","tool_id":"f1","status":"success","output":"Both pages say the Moon pulls the sea.","timestamp":"2026-11-27T12:00:00Z"}`,
		`{"type":"tool_use","tool_name":"web_fetch","tool_id":"f2","parameters":{"prompt":"https://example.org/gone"}}`,
		`{"type":"tool_result","tool_id":"f2","status":"error","error":{"message":"404"}}`,
		`{"type":"result","status":"success","stats":{"input_tokens":1,"output_tokens":1}}`,
	} {
		p.Line([]byte(l))
	}
	res, err := p.Finish(proc.Result{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sources) != 2 || res.Sources[0].URL != "https://example.org/a" || res.Sources[1].URL != "http://127.0.0.1:9/b" ||
		res.Sources[1].Text != "Both pages say the Moon pulls the sea." {
		t.Errorf("sources %+v", res.Sources)
	}
}

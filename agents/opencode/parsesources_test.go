package opencode

import (
	"testing"

	"github.com/rgit-dev/rgit/agents/proc"
)

// TestParseSources: a completed webfetch is a Source with its output and
// title; an errored one is not.
func TestParseSources(t *testing.T) {
	var p parser
	for _, l := range []string{
		`{"type":"tool_use","sessionID":"ses_1","part":{"type":"tool","tool":"webfetch","state":{"status":"completed","input":{"url":"https://example.org/a","format":"markdown"},"output":"# Tides\nThe Moon pulls the sea.","title":"https://example.org/a (text/html)","time":{"start":1,"end":1787482259121}}}}`,
		`{"type":"tool_use","sessionID":"ses_1","part":{"type":"tool","tool":"webfetch","state":{"status":"error","input":{"url":"https://example.org/b"},"error":"404"}}}`,
		`{"type":"text","sessionID":"ses_1","part":{"text":"done"}}`,
		`{"type":"step_finish","sessionID":"ses_1","part":{"reason":"stop"}}`,
	} {
		p.Line([]byte(l))
	}
	res, err := p.Finish(proc.Result{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sources) != 1 || res.Sources[0].URL != "https://example.org/a" || res.Sources[0].Text != "# Tides\nThe Moon pulls the sea." || res.Sources[0].Time.IsZero() {
		t.Errorf("sources %+v", res.Sources)
	}
}

package opencode

import (
	"testing"

	"github.com/rgit-dev/rgit/agents/proc"
)

// TestParseModel: opencode's run events carry no model name, so a run
// records the provider/model rgit passed, and nothing when it passed none.
func TestParseModel(t *testing.T) {
	ok := []string{`{"type":"step_start","sessionID":"ses_1","part":{"type":"step-start"}}`,
		`{"type":"text","sessionID":"ses_1","part":{"type":"text","text":"done"}}`,
		`{"type":"step_finish","sessionID":"ses_1","part":{"type":"step-finish","reason":"stop","cost":0.01,"tokens":{"input":10,"output":2}}}`}
	errored := []string{`{"type":"error","sessionID":"ses_1","error":{"name":"APIError","data":{"message":"boom","statusCode":500}}}`}
	for _, tc := range []struct {
		name    string
		passed  string
		lines   []string
		want    string
		wantErr bool
	}{
		{"the passed model", "opencode/minimax-m2.1-free", ok, "opencode/minimax-m2.1-free", false},
		{"the CLI's configured model is unknown", "", ok, "", false},
		{"an error still names it", "ollama/qwen3:8b", errored, "ollama/qwen3:8b", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &parser{passed: tc.passed}
			for _, l := range tc.lines {
				p.Line([]byte(l))
			}
			res, err := p.Finish(proc.Result{}, nil)
			if res.Model != tc.want || (err != nil) != tc.wantErr {
				t.Errorf("model %q err %v, want %q (error %v)", res.Model, err, tc.want, tc.wantErr)
			}
		})
	}
}

package codex

import (
	"testing"

	"github.com/rgit-dev/rgit/agents/proc"
)

// TestParseModel: codex exec --json names no model, so a run records the
// model rgit passed, and nothing when it passed none, whatever the outcome.
func TestParseModel(t *testing.T) {
	ok := []string{`{"type":"thread.started","thread_id":"t"}`, `{"type":"item.completed","item":{"type":"agent_message","text":"done"}}`,
		`{"type":"turn.completed","usage":{"input_tokens":10,"output_tokens":2}}`}
	failed := []string{`{"type":"thread.started","thread_id":"t"}`, `{"type":"turn.failed","error":{"message":"quota"}}`}
	for _, tc := range []struct {
		name    string
		passed  string
		lines   []string
		want    string
		wantErr bool
	}{
		{"the passed model", "gpt-5.1-codex-mini", ok, "gpt-5.1-codex-mini", false},
		{"the CLI's default is unknown", "", ok, "", false},
		{"a failed turn still names it", "gpt-5-codex", failed, "gpt-5-codex", true},
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

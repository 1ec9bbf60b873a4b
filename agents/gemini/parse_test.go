package gemini

import (
	"testing"

	"github.com/rgit-dev/rgit/agents/proc"
)

// TestParseModel: the model recorded for a run is the one that answered,
// not the alias the CLI was set to.
func TestParseModel(t *testing.T) {
	const (
		initAuto = `{"type":"init","session_id":"s","model":"auto"}`
		initPro  = `{"type":"init","session_id":"s","model":"gemini-2.5-pro"}`
		say      = `{"type":"message","role":"assistant","content":"done","delta":true}`
	)
	result := func(models string) string {
		return `{"type":"result","status":"success","stats":{"input_tokens":10,"output_tokens":2,"models":` + models + `}}`
	}
	for _, tc := range []struct {
		name   string
		passed string
		lines  []string
		want   string
	}{
		{"stats name the model behind auto", "", []string{initAuto, say, result(`{"gemini-2.5-pro":{"total_tokens":900}}`)}, "gemini-2.5-pro"},
		{"the main model, not the router", "", []string{initAuto, say,
			result(`{"gemini-2.5-flash-lite":{"total_tokens":40},"gemini-2.5-pro":{"total_tokens":900}}`)}, "gemini-2.5-pro"},
		{"a tie goes to the first name", "", []string{initAuto, say,
			result(`{"gemini-b":{"total_tokens":5},"gemini-a":{"total_tokens":5}}`)}, "gemini-a"},
		{"init's model without stats", "", []string{initPro, say, `{"type":"result","status":"success"}`}, "gemini-2.5-pro"},
		{"an auto alias is not a model", "", []string{`{"type":"init","model":"auto-gemini-2.5"}`, say, `{"type":"result","status":"success"}`}, ""},
		{"the passed model when the CLI names none", "gemini-2.5-flash", []string{initAuto, say, `{"type":"result","status":"success","stats":{}}`}, "gemini-2.5-flash"},
		{"the stats win over the passed model", "gemini-2.5-flash", []string{initAuto, say, result(`{"gemini-2.5-flash-002":{"total_tokens":3}}`)}, "gemini-2.5-flash-002"},
		{"nothing said, nothing passed", "", []string{say}, ""},
		{"an alias in the stats is skipped", "gemini-2.5-pro", []string{initAuto, say, result(`{"auto":{"total_tokens":9}}`)}, "gemini-2.5-pro"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &parser{passed: tc.passed}
			for _, l := range tc.lines {
				p.Line([]byte(l))
			}
			res, _ := p.Finish(proc.Result{}, nil)
			if res.Model != tc.want {
				t.Errorf("model %q, want %q", res.Model, tc.want)
			}
		})
	}
}

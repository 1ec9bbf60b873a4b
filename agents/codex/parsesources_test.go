package codex

import (
	"testing"

	"github.com/rgit-dev/rgit/agents/proc"
)

// TestParseSources: an opened page is a Source (without text: Codex does
// not report it); a plain search is not.
func TestParseSources(t *testing.T) {
	var p parser
	for _, l := range []string{
		`{"type":"thread.started","thread_id":"t"}`,
		`{"type":"item.completed","item":{"id":"i1","type":"web_search","query":"tides","action":{"type":"search","query":"tides"}}}`,
		`{"type":"item.completed","item":{"id":"i2","type":"web_search","query":"tides","action":{"type":"open_page","url":"https://example.org/tides"}}}`,
		`{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":1}}`,
	} {
		p.Line([]byte(l))
	}
	res, err := p.Finish(proc.Result{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sources) != 1 || res.Sources[0].URL != "https://example.org/tides" || res.Sources[0].Text != "" {
		t.Errorf("sources %+v, want the opened page only", res.Sources)
	}
}

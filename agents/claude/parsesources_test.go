package claude

import (
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/proc"
)

// TestParseSources checks which tool calls of a stream become Sources: a
// WebFetch with its result text, WebSearch's links, and neither a failed
// fetch, an HTTP error, a Read nor a result without its call.
func TestParseSources(t *testing.T) {
	const ok = `{"type":"result","subtype":"success","is_error":false,"result":"done","session_id":"s"}`
	use := func(id, name, input string) string {
		return `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"` + id + `","name":"` + name + `","input":` + input + `}]},"session_id":"s"}`
	}
	result := func(id, content, extra string) string {
		return `{"type":"user","timestamp":"2026-11-27T12:00:00Z","message":{"role":"user","content":[{"tool_use_id":"` + id + `","type":"tool_result","content":` + content + extra + `}]},"session_id":"s"}`
	}
	tests := []struct {
		name  string
		lines []string
		want  []string // "tool url title text"
	}{
		{"fetch", []string{use("t1", "WebFetch", `{"url":"http://127.0.0.1:8080/tides","prompt":"summarise"}`),
			result("t1", `"The Moon pulls the ocean."`, "")}, []string{"WebFetch http://127.0.0.1:8080/tides  The Moon pulls the ocean."}},
		{"fetch with text blocks", []string{use("t1", "WebFetch", `{"url":"https://example.org/a"}`),
			result("t1", `[{"type":"text","text":"one"},{"type":"text","text":"two"}]`, "")}, []string{"WebFetch https://example.org/a  one\ntwo"}},
		{"failed fetch", []string{use("t1", "WebFetch", `{"url":"https://example.org/a"}`),
			result("t1", `"Request failed"`, `,"is_error":true`)}, nil},
		{"search", []string{use("t2", "WebSearch", `{"query":"tides"}`),
			result("t2", `"Web search results for query: \"tides\"\n\nLinks: [{\"title\":\"Tides\",\"url\":\"https://example.org/tides\"}]"`, "")},
			[]string{"WebSearch https://example.org/tides Tides Tides"}},
		{"read is not a source", []string{use("t3", "Read", `{"file_path":"/x"}`), result("t3", `"text"`, "")}, nil},
		{"result without call", []string{result("t9", `"text"`, "")}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var p parser
			for _, l := range append(tc.lines, ok) {
				p.Line([]byte(l))
			}
			res, err := p.Finish(proc.Result{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range res.Sources {
				got = append(got, s.Tool+" "+s.URL+" "+s.Title+" "+s.Text)
				if s.Time.IsZero() {
					t.Errorf("source %s has no time", s.URL)
				}
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("sources %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCutText(t *testing.T) {
	long := strings.Repeat("é", agents.MaxSourceText)
	got := agents.CutText(long, agents.MaxSourceText)
	if len(got) > agents.MaxSourceText || !strings.HasSuffix(got, "[truncated]") || !strings.HasPrefix(got, "é") {
		t.Errorf("cut to %d bytes, ends %q", len(got), got[len(got)-20:])
	}
	if agents.CutText("short", 10) != "short" {
		t.Error("a short text was cut")
	}
}

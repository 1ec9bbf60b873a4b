package modelserver

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestWebFetchScript plays a research call of a client that defers its
// web fetch tool (Claude Code): ToolSearch loads it, the fetch of the page
// comes next, then the write; the output cites the page and a page never
// fetched. A client without a fetch tool just writes.
func TestWebFetchScript(t *testing.T) {
	s := &Script{PageBase: "https://127.0.0.1:1"}
	research := "Topic: Solar sails\nOutput file: `/w/.research/s/progress/solar-sails.md`.\n"
	base := []tool{{name: "ToolSearch", props: []string{"query"}}, {name: "Write", props: []string{"file_path", "content"}}}
	fetch := tool{name: "WebFetch", props: []string{"prompt", "url"}}
	tests := []struct {
		name  string
		tools []tool
		calls []string
		want  string // the tool called, or "text"
	}{
		{"load the deferred tool", base, nil, "ToolSearch"},
		{"fetch once loaded", append(base, fetch), []string{"ToolSearch"}, "WebFetch"},
		{"then write", append(base, fetch), []string{"ToolSearch", "WebFetch"}, "Write"},
		{"then answer", append(base, fetch), []string{"ToolSearch", "WebFetch", "Write"}, "text"},
		{"offered at once", []tool{fetch, base[1]}, nil, "WebFetch"},
		{"no fetch tool", []tool{base[1]}, nil, "Write"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			act, _ := s.decide(turn{prompts: []prompt{{text: research}}, tools: tc.tools, calls: tc.calls})
			got := "text"
			if act.call != nil {
				got = act.call.Tool
			}
			if got != tc.want {
				t.Fatalf("next step %s, want %s", got, tc.want)
			}
			switch got {
			case "WebFetch":
				if act.call.Args["url"] != s.PageBase+PagePath || act.call.Args["prompt"] == nil {
					t.Errorf("WebFetch args %v", act.call.Args)
				}
			case "Write":
				content, _ := act.call.Args["content"].(string)
				if !strings.Contains(content, s.PageBase+PagePath) || !strings.Contains(content, s.PageBase+UnfetchedPath) {
					t.Errorf("the progress file does not cite both pages:\n%s", content)
				}
			}
		})
	}
	// The client's request to read the fetched page with a model gets the
	// page's sentence back.
	act, _ := s.decide(turn{prompts: []prompt{{text: "Web page content:\n---\n# Tides\n" + PageText + "\n---\nReturn the page's text verbatim."}}})
	if act.call != nil || act.text != PageText {
		t.Errorf("page summary %+v", act)
	}
}

// TestPage checks the server serves the page with its sentence.
func TestPage(t *testing.T) {
	srv := httptest.NewServer(New(nil))
	defer srv.Close()
	resp, err := http.Get(srv.URL + PagePath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), PageText) {
		t.Errorf("GET %s: %d %s", PagePath, resp.StatusCode, body)
	}
}

package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

func jsonArgs(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFetchURL(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/page":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><head><title>A &amp; B</title><style>p{}</style></head><body><h1>Head</h1><p>One<br>Two</p><!-- hidden --></body></html>`)
		case "/plain":
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, strings.Repeat("x", 100))
		case "/slow":
			<-r.Context().Done()
		case "/pdf":
			w.Header().Set("Content-Type", "application/pdf")
			fmt.Fprint(w, "%PDF")
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	cases := []struct {
		url       string
		want      string // substring of the answer
		saved     string // substring of the saved file; "" means nothing saved
		forbidden string
	}{
		{srv.URL + "/page", "Title: A & B", "Head\n\nOne\nTwo", "hidden"},
		{srv.URL + "/plain", "[truncated]", strings.Repeat("x", 64) + "\n[truncated]", strings.Repeat("x", 65)},
		{srv.URL + "/pdf", "error: fetch", "", ""},
		{srv.URL + "/slow", "context deadline exceeded", "", ""},
		{srv.URL + "/missing", "HTTP 404", "", ""},
		{"file:///etc/passwd", "only absolute http and https", "", ""},
		{"ftp://example.com/x", "only absolute http and https", "", ""},
		{"/relative", "only absolute http and https", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.url, func(t *testing.T) {
			ws, _ := testWorkspace(t)
			if strings.HasSuffix(tc.url, "/plain") {
				ws.fetch.maxBytes = 64
			}
			if strings.HasSuffix(tc.url, "/slow") {
				ws.fetch.timeout = 100 * time.Millisecond
			}
			got := ws.call(context.Background(), "fetch_url", jsonArgs(t, map[string]string{"url": tc.url}))
			if !strings.Contains(got, tc.want) {
				t.Errorf("answer %q lacks %q", got, tc.want)
			}
			files, _ := filepath.Glob(filepath.Join(ws.dir, "sources", "*"))
			if tc.saved == "" {
				if len(files) != 0 {
					t.Errorf("saved %v for a failed fetch", files)
				}
				return
			}
			if len(files) != 1 {
				t.Fatalf("saved %v, want one file", files)
			}
			b, _ := os.ReadFile(files[0])
			if !strings.Contains(string(b), tc.saved) || (tc.forbidden != "" && strings.Contains(string(b), tc.forbidden)) {
				t.Errorf("saved file:\n%s\nwant %q without %q", b, tc.saved, tc.forbidden)
			}
			if !strings.HasPrefix(string(b), "Source: "+tc.url+"\n") {
				t.Errorf("saved file does not start with its source URL:\n%s", b)
			}
		})
	}
}

func TestSourceNameStable(t *testing.T) {
	cases := []struct{ url, want string }{
		{"https://example.com/docs/Intro", "example-com-docs-intro-"},
		{"http://a.b/" + strings.Repeat("long-", 30), "a-b-long-long-"},
	}
	for _, tc := range cases {
		u, _ := url.Parse(tc.url)
		n1, n2 := agents.SourceFileName(u.String()), agents.SourceFileName(u.String())
		if n1 != n2 || !strings.HasPrefix(n1, tc.want) || !strings.HasSuffix(n1, ".md") || len(n1) > 75 {
			t.Errorf("SourceFileName(%s) = %q then %q, want a stable name starting %q", tc.url, n1, n2, tc.want)
		}
	}
	a, _ := url.Parse("https://example.com/x?a=1")
	b, _ := url.Parse("https://example.com/x?a=2")
	if agents.SourceFileName(a.String()) == agents.SourceFileName(b.String()) {
		t.Errorf("different URLs share the name %s", agents.SourceFileName(a.String()))
	}
}

func TestWebSearch(t *testing.T) {
	var gotQuery string
	searx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotQuery = r.URL.Query().Get("q") + "|" + r.URL.Query().Get("format")
		fmt.Fprint(w, `{"results":[{"url":"https://x.org/a","title":"X A","content":"About a."}]}`)
	}))
	defer searx.Close()
	ws, _ := testWorkspace(t)
	if ws.tools()[len(ws.tools())-1].Function.Name == "web_search" {
		t.Fatal("web_search offered without a SearXNG URL")
	}
	ws.searx = searx.URL
	if ws.tools()[len(ws.tools())-1].Function.Name != "web_search" {
		t.Fatal("web_search not offered with a SearXNG URL")
	}
	got := ws.call(context.Background(), "web_search", `{"query":"solar sails"}`)
	if !strings.Contains(got, "1. X A\n   https://x.org/a\n   About a.") || gotQuery != "solar sails|json" {
		t.Errorf("web_search = %q (query sent %q)", got, gotQuery)
	}
}

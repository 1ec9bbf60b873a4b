package openai

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
)

// testWorkspace lays out root/{.research/s, reports/s, corpus, outside}
// with a symlink from the workspace to outside.
func testWorkspace(t *testing.T) (*workspace, string) {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{".research/s", "reports/s", "corpus/sub", "outside", ".git"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		"corpus/sub/notes.txt": "alpha\nSolar Sails use light pressure\n",
		"outside/secret.txt":   "secret",
		".research/s/plan.md":  "# Plan\n",
	}
	for p, c := range files {
		if err := os.WriteFile(filepath.Join(root, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "outside"), filepath.Join(root, ".research/s/link")); err != nil {
		t.Fatal(err)
	}
	a := New(Options{Corpus: []string{filepath.Join(root, "corpus")}})
	ws, err := a.newWorkspace(agents.Task{Dir: filepath.Join(root, ".research/s"), Root: root,
		Output: filepath.Join(root, "reports/s/report.md")})
	if err != nil {
		t.Fatal(err)
	}
	return ws, root
}

func TestWriteFileConfinement(t *testing.T) {
	ws, root := testWorkspace(t)
	cases := []struct {
		name, path string
		ok         bool
	}{
		{"relative inside", "progress/topic.md", true},
		{"absolute inside", filepath.Join(root, ".research/s/notes.md"), true},
		{"the output outside the workspace", filepath.Join(root, "reports/s/report.md"), true},
		{"output's sibling", filepath.Join(root, "reports/s/other.md"), false},
		{"dot-dot escape", "../../outside/x.md", false},
		{"absolute elsewhere", filepath.Join(root, "outside/x.md"), false},
		{"through a symlink", "link/x.md", false},
		{"git dir", filepath.Join(root, ".git/config"), false},
		{"control character", "a\x1b.md", false},
		{"the workspace itself", ".", false},
		{"empty", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := ws.call(context.Background(), "write_file", jsonArgs(t, map[string]string{"path": tc.path, "content": "data"}))
			if ok := !strings.HasPrefix(out, "error:"); ok != tc.ok {
				t.Fatalf("write %q: %s (allowed %v, want %v)", tc.path, out, ok, tc.ok)
			}
		})
	}
	if b, err := os.ReadFile(filepath.Join(root, "outside/x.md")); err == nil {
		t.Errorf("a rejected write reached outside/: %q", b)
	}
	if !ws.wroteOutput() {
		t.Errorf("writing the output file was not noticed; written = %v", ws.written)
	}
}

func TestReadListSearch(t *testing.T) {
	ws, root := testWorkspace(t)
	cases := []struct {
		tool, args string
		want       string // substring of the answer
	}{
		{"read_file", `{"path":"plan.md"}`, "# Plan"},
		{"read_file", `{"path":"` + filepath.Join(root, "corpus/sub/notes.txt") + `"}`, "light pressure"},
		{"read_file", `{"path":"` + filepath.Join(root, "outside/secret.txt") + `"}`, "error: path"},
		{"read_file", `{"path":"link/secret.txt"}`, "error: path"},
		{"read_file", `{"path":"missing.md"}`, "error: open"},
		{"list_files", `{}`, filepath.Join(root, "corpus/sub/notes.txt")},
		{"list_files", `{"path":"../../outside"}`, "error: path"},
		{"search_files", `{"query":"solar sails"}`, "notes.txt:2: Solar Sails use light pressure"},
		{"search_files", `{"query":"secret"}`, "no matches"},
		{"search_files", `{"query":""}`, "error: query is empty"},
		{"delete_file", `{}`, `error: unknown tool "delete_file"`},
		{"read_file", `not json`, "error: arguments are not a JSON object"},
	}
	for _, tc := range cases {
		t.Run(tc.tool+" "+tc.args, func(t *testing.T) {
			if got := ws.call(context.Background(), tc.tool, tc.args); !strings.Contains(got, tc.want) {
				t.Errorf("%s(%s) = %q, want it to contain %q", tc.tool, tc.args, got, tc.want)
			}
		})
	}
}

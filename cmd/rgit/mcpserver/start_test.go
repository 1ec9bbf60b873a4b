package mcpserver

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestStart(t *testing.T) {
	repo := gitRepo(t)
	f := &fake{}
	cs := connect(t, f, Options{Dir: filepath.Join(repo)})
	res, text, structured := call(t, cs, "research_start", map[string]any{
		"topic": "  How do tides work?  ", "model": "mock", "breadth": 1, "depth": 0, "time_minutes": 1.5,
	})
	if res.IsError {
		t.Fatalf("error: %s", text)
	}
	want := StartRequest{Repo: repo, Topic: "How do tides work?", Breadth: 1, Depth: 0, Model: "mock", TimeBudget: 90e9}
	if got := f.started; got.Repo != want.Repo || got.Topic != want.Topic || got.Breadth != 1 || got.Depth != 0 || got.Model != "mock" || got.TimeBudget != want.TimeBudget {
		t.Errorf("request %+v, want %+v", got, want)
	}
	for _, w := range []string{"started session tides on branch research/tides", "tail -f " + repo + "/.research/tides/progress.log", "research_status"} {
		if !strings.Contains(text, w) {
			t.Errorf("text does not say %q:\n%s", w, text)
		}
	}
	if !strings.Contains(structured, `"progress_log":"`+repo+`/.research/tides/progress.log"`) || !strings.Contains(structured, `"branch":"research/tides"`) {
		t.Errorf("structured: %s", structured)
	}
	// Omitted breadth and depth are rgit research's defaults; a council.
	call(t, cs, "research_start", map[string]any{"topic": "Kites", "council": []string{"installed"}, "test": true})
	if got := f.started; got.Breadth != 3 || got.Depth != 3 || len(got.Council) != 1 || !got.Test {
		t.Errorf("defaults: %+v", got)
	}
	// Budgets pass through (as --max-cost and --max-tokens).
	if res, text, _ := call(t, cs, "research_start", map[string]any{"topic": "Kites", "cost_usd": 2.5, "max_tokens": 200000}); res.IsError {
		t.Fatalf("budgets refused: %s", text)
	}
	if got := f.started; got.CostUSD != 2.5 || got.MaxTokens != 200000 {
		t.Errorf("budgets: %+v", got)
	}
}

// TestStartBadInput: each bad input is a tool error with the lines the
// CLI prints, and no session is started.
func TestStartBadInput(t *testing.T) {
	repo := gitRepo(t)
	plain := t.TempDir()
	tests := []struct {
		name string
		args map[string]any
		want string // the whole text
	}{
		{"missing topic", map[string]any{}, "rgit: error: missing research topic\nrgit: hint: pass the topic as an argument: rgit research \"topic or question\""},
		{"blank topic", map[string]any{"topic": " \t"}, "rgit: error: missing research topic\n"},
		{"bad name", map[string]any{"topic": "t", "name": "Bad Name"}, "rgit: error: invalid session name \"Bad Name\"\nrgit: hint: use 1-64 characters"},
		{"escaping name", map[string]any{"topic": "t", "name": "../x"}, "rgit: error: invalid session name \"../x\""},
		{"breadth 0", map[string]any{"topic": "t", "breadth": 0}, "rgit: error: invalid --breadth 0: must be at least 1"},
		{"depth -1", map[string]any{"topic": "t", "depth": -1}, "rgit: error: invalid --depth -1: must be at least 0"},
		{"tree too large", map[string]any{"topic": "t", "breadth": 51}, "rgit: error: tree of breadth 51 depth 3 is too large"},
		{"unknown argument", map[string]any{"topc": "t"}, "rgit: error: unknown argument \"topc\"\nrgit: hint: see the input schema of research_start"},
		{"wrong type", map[string]any{"topic": "t", "breadth": "three"}, "rgit: error: invalid argument \"breadth\": want an integer, got string"},
		{"model and council", map[string]any{"topic": "t", "model": "mock", "council": []string{"claude"}}, "rgit: error: model and council both given"},
		{"unknown backend", map[string]any{"topic": "t", "model": "gpt4"}, "rgit: error: parse agent \"gpt4\": unknown backend \"gpt4\""},
		{"installed and more", map[string]any{"topic": "t", "council": []string{"installed", "codex"}}, "rgit: error: council [\"installed\" \"codex\"] mixes \"installed\""},
		{"negative time", map[string]any{"topic": "t", "time_minutes": -1}, "rgit: error: invalid time_minutes -1: must be 0 or more"},
		{"negative cost", map[string]any{"topic": "t", "cost_usd": -0.5}, "rgit: error: invalid cost_usd -0.5: must be 0 or more"},
		{"repo not git", map[string]any{"topic": "t", "repo": plain}, "rgit: error: not a git repository: " + plain + "\nrgit: hint: pass repo"},
		{"repo missing", map[string]any{"topic": "t", "repo": filepath.Join(repo, "nope")}, "rgit: error: no such directory: " + filepath.Join(repo, "nope")},
	}
	f := &fake{}
	cs := connect(t, f, Options{Dir: repo})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, text, structured := call(t, cs, "research_start", tt.args)
			if !res.IsError || !strings.HasPrefix(text, tt.want) {
				t.Errorf("error %v, text:\n%s\nwant it to start with:\n%s", res.IsError, text, tt.want)
			}
			if strings.Count(text, "\n") > 1 {
				t.Errorf("more than the error and hint lines:\n%s", text)
			}
			if structured != "" {
				t.Errorf("a tool error carries a result: %s", structured)
			}
		})
	}
	if f.Calls() != "" {
		t.Errorf("bad input reached Sessions: %s", f.Calls())
	}
}

// TestServerDirNotRepository: with no repo argument, a server started
// outside a repository says so.
func TestServerDirNotRepository(t *testing.T) {
	dir := t.TempDir()
	cs := connect(t, &fake{}, Options{Dir: dir})
	for _, tool := range []string{"research_list", "research_status", "research_start"} {
		res, text, _ := call(t, cs, tool, map[string]any{"topic": "t"})
		if tool != "research_start" {
			res, text, _ = call(t, cs, tool, nil)
		}
		if !res.IsError || !strings.HasPrefix(text, "rgit: error: not a git repository: "+dir) {
			t.Errorf("%s: %s", tool, text)
		}
	}
}

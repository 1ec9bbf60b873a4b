package registry

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/proc/proctest"
)

var fakes string // the directory holding the fake CLIs

func TestMain(m *testing.M) {
	dir, cleanup, err := proctest.Setup()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fakes = dir
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// options finds only the named fake CLIs and reads env from the map.
func options(env map[string]string, installed ...string) Options {
	return Options{
		Getenv: func(k string) string { return env[k] },
		LookPath: func(name string) (string, error) {
			for _, n := range installed {
				if n == name {
					return filepath.Join(fakes, name), nil
				}
			}
			return "", exec.ErrNotFound
		},
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		spec, backend, model, err string
	}{
		{"claude:claude-opus-4-6", "claude", "claude-opus-4-6", ""},
		{"codex:gpt-5.3-codex", "codex", "gpt-5.3-codex", ""},
		{"gemini:gemini-2.5-pro", "gemini", "gemini-2.5-pro", ""},
		{"opencode:opencode/minimax-m2.1-free", "opencode", "opencode/minimax-m2.1-free", ""},
		{"opencode/minimax-m2.1-free", "opencode", "opencode/minimax-m2.1-free", ""},
		{"ollama/qwen3:8b", "opencode", "ollama/qwen3:8b", ""},
		{"openai:llama3.1:8b", "openai", "llama3.1:8b", ""},
		{"local", "local", "", ""},
		{"mock", "mock", "", ""},
		{"claude", "claude", "", ""},
		{" auto ", "auto", "", ""},
		{"", "", "", "empty name"},
		{"gpt4", "", "", `unknown backend "gpt4"; want one of opencode, claude, codex, gemini, openai, local, mock`},
		{"foo:bar", "", "", `unknown backend "foo"`},
		{"claude:", "", "", "empty model"},
		{"claude:--dangerously-skip-permissions", "", "", "cannot start with '-'"},
		{"codex:gpt 5", "", "", "cannot contain"},
		{"codex:gpt\x075", "", "", "cannot contain"},
	}
	for _, tt := range tests {
		b, m, err := Parse(tt.spec)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Parse(%q) err = %v, want %q", tt.spec, err, tt.err)
			}
			continue
		}
		if err != nil || b != tt.backend || m != tt.model {
			t.Errorf("Parse(%q) = %q, %q, %v; want %q, %q", tt.spec, b, m, err, tt.backend, tt.model)
		}
	}
}

func TestNew(t *testing.T) {
	all := options(map[string]string{"OPENAI_MODEL": "llama3.1"}, CLIs...)
	tests := []struct {
		spec      string
		o         Options
		name      string
		model     string
		errKind   error
		errSubstr string
	}{
		{"claude:claude-opus-4-6", all, "claude", "claude-opus-4-6", nil, ""},
		{"codex:gpt-5.1-codex-mini", all, "codex", "gpt-5.1-codex-mini", nil, ""},
		{"gemini", all, "gemini", "", nil, ""},
		{"opencode/big-pickle", all, "opencode", "opencode/big-pickle", nil, ""},
		{"openai:qwen3:8b", all, "openai", "qwen3:8b", nil, ""},
		{"openai", all, "openai", "llama3.1", nil, ""},
		{"openai", options(nil), "", "", nil, "no model"},
		{"local", options(nil), "local", "", nil, ""},
		{"mock", options(nil), "mock", "", nil, ""},
		{"mock", options(map[string]string{"RGIT_MOCK_DELAY": "soon"}), "", "", nil, "RGIT_MOCK_DELAY"},
		{"auto", options(nil, "gemini"), "gemini", "", nil, ""},
		{"claude", options(nil), "", "", agents.ErrNotInstalled, "npm install -g @anthropic-ai/claude-code"},
		{"nope:x", all, "", "", nil, "unknown backend"},
	}
	for _, tt := range tests {
		a, model, err := New(tt.spec, tt.o)
		if tt.errKind != nil || tt.errSubstr != "" {
			if err == nil || (tt.errKind != nil && !errors.Is(err, tt.errKind)) || !strings.Contains(err.Error(), tt.errSubstr) {
				t.Errorf("New(%q) err = %v, want %v %q", tt.spec, err, tt.errKind, tt.errSubstr)
			}
			continue
		}
		if err != nil || a.Name() != tt.name || model != tt.model {
			t.Errorf("New(%q) = %v, %q, %v; want %s %q", tt.spec, a, model, err, tt.name, tt.model)
		}
	}
}

// Every row of the table builds the backend of its name: a new CLI row
// without its case in New would otherwise come out as opencode.
func TestNewEveryBackend(t *testing.T) {
	o := options(map[string]string{"OPENAI_MODEL": "llama3.1"}, CLIs...)
	for _, b := range Table() {
		a, _, err := New(b.Name, o)
		if err != nil || a.Name() != b.Name {
			t.Errorf("New(%q) = %v, %v", b.Name, a, err)
		}
	}
}

// The built agent runs the fake found through LookPath: the whole way
// from a spec to a result.
func TestNewRuns(t *testing.T) {
	for _, name := range CLIs {
		t.Run(name, func(t *testing.T) {
			f := proctest.NewFixture(t, "ok")
			for _, kv := range f.Env {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			spec := name
			if m := CheapModel(name); m != "" {
				spec += ":" + m
			}
			a, model, err := New(spec, options(nil, name))
			if err != nil {
				t.Fatal(err)
			}
			res, err := a.Run(context.Background(), agents.Task{Prompt: "hello", Dir: f.Dir, Output: f.Output, Model: model})
			if err != nil || !strings.Contains(res.Text, "fake "+name+" answer: hello") {
				t.Errorf("run: %q, %v", res.Text, err)
			}
		})
	}
}

func TestAuto(t *testing.T) {
	tests := []struct {
		name             string
		o                Options
		spec, review, in string
	}{
		{"opencode first", options(nil, CLIs...), "opencode:opencode/minimax-m2.1-free", "opencode:opencode/big-pickle", "opencode found at"},
		{"claude", options(nil, "claude", "gemini"), "claude", "claude", "claude found at"},
		{"codex", options(nil, "codex", "gemini"), "codex", "codex", "codex found"},
		{"gemini", options(nil, "gemini"), "gemini", "gemini", "gemini found"},
		{"openai", options(map[string]string{"OPENAI_BASE_URL": "http://u:secret@h/v1", "OPENAI_MODEL": "llama3.1"}),
			"openai:llama3.1", "openai:llama3.1", "OPENAI_BASE_URL and OPENAI_MODEL are set"},
		{"openai without model", options(map[string]string{"OPENAI_BASE_URL": "http://h/v1"}), "", "", "OPENAI_MODEL is not"},
		{"corpus", Options{Corpus: []string{"/docs"}, Getenv: func(string) string { return "" }, LookPath: options(nil).LookPath},
			"local", "local", "offline researcher reads --corpus"},
		{"nothing", options(nil), "", "", "no --corpus for the offline researcher"},
	}
	for _, tt := range tests {
		spec, reason := Auto(tt.o)
		review, _ := AutoReview(tt.o)
		if spec != tt.spec || review != tt.review || !strings.Contains(reason, tt.in) || strings.Contains(reason, "secret") {
			t.Errorf("%s: Auto = %q (%q), review %q; want %q, %q", tt.name, spec, reason, review, tt.spec, tt.review)
		}
		if _, _, err := Parse(spec); spec != "" && err != nil {
			t.Errorf("%s: Auto's spec does not parse: %v", tt.name, err)
		}
		_, _, err := New("auto", tt.o)
		var none *NoAgentError
		if (spec == "") != errors.As(err, &none) || spec == "" && !errors.Is(err, agents.ErrNotInstalled) {
			t.Errorf("%s: New(auto) = %v", tt.name, err)
		}
	}
}

func TestTestModels(t *testing.T) {
	m, r := TestModels()
	for _, spec := range []string{m, r} {
		b, model, err := Parse(spec)
		if err != nil || model != CheapModel(b) || model == "" {
			t.Errorf("TestModels spec %q: %q %q %v", spec, b, model, err)
		}
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name     string
		scenario string
		env      map[string]string
		want     map[string]Status // checked fields: Found, Version, Missing's prefix, and Can when given
	}{
		{"logged in", "ok", map[string]string{"GEMINI_API_KEY": "k", "OPENAI_BASE_URL": "http://localhost:11434/v1"},
			map[string]Status{
				"claude":   {Found: true, Version: "2.1.197 (Claude Code)", Can: []string{"writes", "browses", "tokens", "cost"}},
				"codex":    {Found: true, Version: "codex-cli 0.169.0", Can: []string{"writes", "browses", "tokens"}},
				"gemini":   {Found: true, Version: "0.61.0"},
				"opencode": {Found: true, Version: "1.18.33"},
				"openai":   {Found: true},
				"local":    {Found: true, Version: "built-in", Can: []string{"writes"}},
			}},
		{"logged out", "auth", map[string]string{"HOME": t.TempDir(), "OPENAI_BASE_URL": "https://api.openai.com/v1"},
			map[string]Status{
				"claude": {Found: true, Version: "2.1.197 (Claude Code)", Missing: "login"},
				"codex":  {Found: true, Version: "codex-cli 0.169.0", Missing: "login"},
				"gemini": {Found: true, Version: "0.61.0", Missing: "API key or login"},
				"openai": {Found: true, Missing: "API key"},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("FAKE_AGENT_SCENARIO", tt.scenario)
			got := Detect(context.Background(), options(tt.env, CLIs...))
			if len(got) != len(Backends) {
				t.Fatalf("%d statuses", len(got))
			}
			for i, s := range got {
				if s.Backend != Backends[i] {
					t.Errorf("order: %d is %q", i, s.Backend)
				}
				w, ok := tt.want[s.Backend]
				if !ok {
					continue
				}
				if s.Found != w.Found || s.Version != w.Version || !strings.HasPrefix(s.Missing, w.Missing) || (w.Missing == "") != (s.Missing == "") ||
					w.Can != nil && !slices.Equal(s.Can, w.Can) {
					t.Errorf("%s: %+v, want %+v", s.Backend, s, w)
				}
			}
		})
	}
	none := Detect(context.Background(), options(nil))
	for _, s := range none[:4] {
		if s.Found || !strings.HasPrefix(s.Missing, "binary (npm install -g ") {
			t.Errorf("not installed: %+v", s)
		}
	}
}

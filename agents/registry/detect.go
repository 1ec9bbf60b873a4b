package registry

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/rgit-dev/rgit/agents/proc"
	"github.com/rgit-dev/rgit/agents/registry/catalog"
)

// probeTimeout bounds each --version or login-status command of Detect.
const probeTimeout = 15 * time.Second

// Status is one backend as `rgit agents` shows it.
type Status struct {
	Backend string
	Path    string // the command, or the endpoint for openai
	Version string
	// Missing says what to fix before the backend can run (binary, login,
	// API key); "" when nothing is known to be missing.
	Missing string
	Found   bool // the command (or endpoint setting) exists
	// Can lists what the backend can do, from the table: "writes" its
	// files, "browses" the web, reports "tokens", reports "cost".
	Can []string
}

// Detect reports every backend of Backends, in that order. It runs each
// installed CLI's --version and, where the CLI has one, its login-status
// command (in parallel, each bounded by probeTimeout); it never calls a
// model.
func Detect(ctx context.Context, o Options) []Status {
	out := make([]Status, len(Backends))
	var wg sync.WaitGroup
	for i, b := range Backends {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = detect(ctx, o, b)
		}()
	}
	wg.Wait()
	return out
}

func detect(ctx context.Context, o Options, backend string) Status {
	b, _ := catalog.Lookup(backend)
	s := Status{Backend: backend, Can: can(b)}
	switch b.Kind {
	case catalog.Builtin:
		s.Found, s.Version, s.Path = true, "built-in", "(built in)"
		return s
	case catalog.HTTP:
		base := o.getenv("OPENAI_BASE_URL")
		if base == "" {
			s.Missing = "OPENAI_BASE_URL (an OpenAI-compatible endpoint; openai:<model> alone uses Ollama at " + "http://localhost:11434/v1)"
			return s
		}
		s.Found, s.Path = true, "OPENAI_BASE_URL"
		if strings.Contains(base, "api.openai.com") && o.getenv("OPENAI_API_KEY") == "" {
			s.Missing = "API key (set OPENAI_API_KEY)"
		}
		return s
	}
	path, err := o.lookPath(b.Binary)
	if err != nil {
		s.Missing = "binary (" + b.Install + ")"
		return s
	}
	s.Found, s.Path = true, path
	if res, err := run(ctx, path, "--version"); err == nil && res.ExitCode == 0 {
		s.Version = proc.LastLines(res.Stdout, 1)
	}
	s.Missing = missingLogin(ctx, o, backend, path)
	return s
}

// missingLogin says how to log in when the CLI is known not to be.
func missingLogin(ctx context.Context, o Options, backend, path string) string {
	switch backend {
	case "claude":
		res, err := run(ctx, path, "auth", "status")
		if err != nil {
			return ""
		}
		var st struct {
			LoggedIn bool `json:"loggedIn"`
		}
		if json.Unmarshal(res.Stdout, &st) == nil && !st.LoggedIn || res.ExitCode != 0 {
			return "login (run `claude` and /login, or set ANTHROPIC_API_KEY)"
		}
	case "codex":
		// `codex exec` honours CODEX_API_KEY; `codex login status` does not.
		if o.getenv("CODEX_API_KEY") != "" {
			return ""
		}
		if res, err := run(ctx, path, "login", "status"); err == nil && res.ExitCode != 0 {
			return "login (run `codex login`, or set CODEX_API_KEY)"
		}
	case "gemini":
		if !geminiAuth(o) {
			return "API key or login (set GEMINI_API_KEY, or run `gemini` once to log in)"
		}
	}
	return ""
}

// geminiAuth mirrors the CLI's headless check: an auth env variable, or an
// auth type chosen in the user's settings.
func geminiAuth(o Options) bool {
	gemini, _ := catalog.Lookup("gemini")
	for _, k := range append([]string{"GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_GCA"}, gemini.KeyVars...) {
		if o.getenv(k) != "" {
			return true
		}
	}
	home := o.getenv("GEMINI_CLI_HOME")
	if home == "" {
		home = o.getenv("HOME")
	}
	b, err := os.ReadFile(filepath.Join(home, ".gemini", "settings.json"))
	if err != nil {
		return false
	}
	var st struct {
		Security struct {
			Auth struct {
				SelectedType string `json:"selectedType"`
			} `json:"auth"`
		} `json:"security"`
	}
	return json.Unmarshal(b, &st) == nil && st.Security.Auth.SelectedType != ""
}

func run(ctx context.Context, path string, args ...string) (proc.Result, error) {
	return proc.Run(ctx, proc.Cmd{Path: path, Args: args, Timeout: probeTimeout,
		Grace: time.Second, MaxStdout: 64 << 10})
}

// can names b's capabilities for Status.Can.
func can(b Backend) []string {
	var out []string
	for _, c := range []struct {
		ok   bool
		name string
	}{{b.WritesFiles, "writes"}, {b.Browses, "browses"}, {b.ReportsUsage, "tokens"}, {b.ReportsCost, "cost"}} {
		if c.ok {
			out = append(out, c.name)
		}
	}
	return out
}

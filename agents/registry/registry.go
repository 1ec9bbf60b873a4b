// Package registry names and builds agents: it parses "backend:model"
// specs, constructs the backend they name, picks one automatically from
// what is installed, and reports which backends are usable (`rgit agents`).
// What it knows of each backend comes from the table of package catalog,
// which it re-exports.
package registry

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"unicode"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/claude"
	"github.com/rgit-dev/rgit/agents/codex"
	"github.com/rgit-dev/rgit/agents/gemini"
	"github.com/rgit-dev/rgit/agents/local"
	"github.com/rgit-dev/rgit/agents/mock"
	"github.com/rgit-dev/rgit/agents/openai"
	"github.com/rgit-dev/rgit/agents/opencode"
	"github.com/rgit-dev/rgit/agents/registry/catalog"
)

// Backend describes one backend: see package catalog.
type Backend = catalog.Backend

// Lookup returns the table's entry for the backend called name.
func Lookup(name string) (Backend, bool) { return catalog.Lookup(name) }

// Table returns every backend, in the order `rgit agents` shows them.
func Table() []Backend { return catalog.All() }

// Backends lists every backend name, in the order `rgit agents` shows them.
var Backends = catalog.Names()

// CLIs are the backends that run an installed command, in the order Auto
// tries them.
var CLIs = catalog.Names(catalog.CLI)

// Options carries what building a backend needs from outside.
type Options struct {
	Corpus   []string // directories the local and openai backends research
	CacheDir string   // the local backend's index cache
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// LookPath finds a command on PATH; nil means exec.LookPath.
	LookPath func(string) (string, error)
}

func (o Options) getenv(k string) string {
	if o.Getenv == nil {
		return os.Getenv(k)
	}
	return o.Getenv(k)
}

func (o Options) lookPath(name string) (string, error) {
	if o.LookPath == nil {
		return exec.LookPath(name)
	}
	return o.LookPath(name)
}

// Parse splits an agent spec into backend and model. Accepted forms:
// "backend:model" (the model may itself hold ':' or '/', as in
// "opencode:ollama/qwen3:8b"), a bare "backend" (its default model),
// "local", "mock", "auto", and a bare "provider/model", which names an
// opencode model (the seed's "opencode/minimax-m2.1-free").
func Parse(spec string) (backend, model string, err error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return "", "", errors.New("parse agent: empty name; want backend:model, for example claude:claude-opus-4-6")
	}
	head, model, hasModel := strings.Cut(spec, ":")
	switch {
	case head == "auto" && !hasModel:
		return "auto", "", nil
	case strings.Contains(head, "/"):
		backend, model = "opencode", spec
	case isBackend(head):
		backend = head
	default:
		return "", "", fmt.Errorf("parse agent %q: unknown backend %q; want one of %s (as backend:model), auto, or provider/model for opencode",
			spec, head, strings.Join(Backends, ", "))
	}
	if hasModel && model == "" {
		return "", "", fmt.Errorf("parse agent %q: empty model after ':'; drop the ':' for the backend's default model", spec)
	}
	if err := checkModel(model); err != nil {
		return "", "", fmt.Errorf("parse agent %q: %w", spec, err)
	}
	return backend, model, nil
}

// checkModel refuses models that a CLI would misread: a leading '-' is a
// flag to it, and whitespace or control characters are never part of a
// model name.
func checkModel(m string) error {
	if strings.HasPrefix(m, "-") {
		return errors.New("a model cannot start with '-'")
	}
	if i := strings.IndexFunc(m, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }); i >= 0 {
		return fmt.Errorf("a model cannot contain %q", m[i:i+1])
	}
	return nil
}

func isBackend(name string) bool {
	_, ok := catalog.Lookup(name)
	return ok
}

// New builds the agent spec names and returns it with its model ("" for
// the backend's default). "auto" picks with Auto (a *NoAgentError when it
// finds nothing). A CLI backend whose command is not on PATH is an error
// wrapping agents.ErrNotInstalled.
func New(spec string, o Options) (agents.Agent, string, error) {
	backend, model, err := Parse(spec)
	if err != nil {
		return nil, "", err
	}
	if backend == "auto" {
		auto, why := Auto(o)
		if auto == "" {
			return nil, "", &NoAgentError{Reason: why}
		}
		return New(auto, o)
	}
	switch backend {
	case "local":
		return local.New(local.Options{Corpus: o.Corpus, CacheDir: o.CacheDir}), model, nil
	case "mock":
		mo, err := mock.FromEnv(o.getenv)
		if err != nil {
			return nil, "", err
		}
		return mock.New(mo), model, nil
	case "openai":
		oo := openai.EnvOptions(o.getenv)
		oo.Corpus, oo.Model = o.Corpus, model
		if model == "" {
			oo.Model = o.getenv("OPENAI_MODEL")
		}
		if oo.Model == "" {
			return nil, "", errors.New("build agent openai: no model; name one as openai:<model> or set OPENAI_MODEL")
		}
		return openai.New(oo), oo.Model, nil
	}
	b, _ := catalog.Lookup(backend)
	path, err := o.lookPath(b.Binary)
	if err != nil {
		return nil, "", &agents.CallError{Backend: backend, Kind: agents.ErrNotInstalled,
			Msg: fmt.Sprintf("%s is not on PATH; install it with `%s`", b.Binary, b.Install)}
	}
	switch backend {
	case "claude":
		return claude.New(claude.Options{Binary: path}), model, nil
	case "codex":
		co := codex.Options{Binary: path, NoSandbox: o.getenv("RGIT_CODEX_NO_SANDBOX") == "1"}
		if model == b.CheapModel {
			co.Effort = b.CheapEffort // the seed's test command
		}
		return codex.New(co), model, nil
	case "gemini":
		return gemini.New(gemini.Options{Binary: path}), model, nil
	default:
		return opencode.New(opencode.Options{Binary: path}), model, nil
	}
}

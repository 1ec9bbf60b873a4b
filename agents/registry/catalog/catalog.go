// Package catalog is where a backend is described: one table of plain data
// naming every agent backend rgit knows, its command, models, credential
// variables and capabilities. Auto selection, `rgit agents`, `--test`,
// `--jobs` and the secret redactor all read it.
//
// It imports nothing of rgit, so that the leaf packages can read it too:
// package registry builds the backends (and so imports them all), while
// agents/redact, which every backend uses through agents/proc, only needs
// the credential variables listed here. Registry re-exports the table.
package catalog

import (
	"runtime"
	"slices"
)

// Kind is how rgit reaches a backend.
type Kind int

// The kinds of backends.
const (
	CLI     Kind = iota // an installed command run as a subprocess
	HTTP                // a model endpoint spoken to over HTTP
	Builtin             // code inside rgit
)

// Backend describes one backend. The fields are read-only data.
type Backend struct {
	Name   string // as in "backend:model"
	Kind   Kind
	Binary string // the command looked up on PATH; "" unless Kind is CLI
	// Install says how to get the backend, for `rgit agents` and errors.
	Install string
	// DefaultModel researches when none is named; "" leaves the choice to
	// the CLI's own configuration (or OPENAI_MODEL for openai).
	DefaultModel string
	// ReviewModel reviews when none is named; "" means DefaultModel.
	ReviewModel string
	// CheapModel is what `--test` switches to (seed 000's "Testing"
	// table); "" keeps the model, for backends that are free already.
	CheapModel string
	// CheapEffort is the reasoning effort that goes with CheapModel.
	CheapEffort string
	// KeyVars are the environment variables that carry the backend's
	// credentials; their values never reach a commit, a log or the
	// terminal.
	KeyVars []string
	// WritesFiles: the backend writes its output files itself (else rgit
	// writes the final message to the output file).
	WritesFiles bool
	Browses     bool // it can search or fetch the web
	// ReportsUsage: results carry token counts; ReportsCost: a cost in USD.
	ReportsUsage, ReportsCost bool
	// Concurrent: several calls may run at once (see DefaultJobs).
	Concurrent bool
	// Prices are per model, in USD per million input/output tokens (list
	// prices when this table was written), for costing calls of backends
	// that report tokens but no cost; a missing model has no known price
	// (the user's --prices or git config research.prices add or override).
	Prices map[string]Price
}

// Price is what a model charges, in USD per million tokens.
type Price struct {
	InputPerMTok, OutputPerMTok float64
}

// table is every backend in the order `rgit agents` lists them; the CLIs
// come in the order Auto tries them.
var table = []Backend{
	{Name: "opencode", Kind: CLI, Binary: "opencode", Install: "npm install -g opencode-ai",
		DefaultModel: "opencode/minimax-m2.1-free", ReviewModel: "opencode/big-pickle",
		// Keys come from each provider's usual variables (models.dev).
		KeyVars:     []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY"},
		WritesFiles: true, Browses: true, ReportsUsage: true, ReportsCost: true, Concurrent: true,
		Prices: map[string]Price{"opencode/minimax-m2.1-free": {0, 0}, "opencode/big-pickle": {0, 0}}},
	{Name: "claude", Kind: CLI, Binary: "claude", Install: "npm install -g @anthropic-ai/claude-code",
		CheapModel:  "claude-haiku-4-5-20251001",
		KeyVars:     []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"},
		WritesFiles: true, Browses: true, ReportsUsage: true, ReportsCost: true, Concurrent: true,
		Prices: map[string]Price{"claude-haiku-4-5-20251001": {1, 5}, "claude-sonnet-4-5": {3, 15}, "claude-opus-4-6": {5, 25}}},
	{Name: "codex", Kind: CLI, Binary: "codex", Install: "npm install -g @openai/codex",
		CheapModel: "gpt-5.1-codex-mini", CheapEffort: "low",
		KeyVars:     []string{"CODEX_API_KEY", "OPENAI_API_KEY"},
		WritesFiles: true, Browses: true, ReportsUsage: true, Concurrent: true,
		// The CLI's default model is its own configuration's; gpt-5.1-codex is
		// the usual one. Another model has no price unless --prices names it.
		Prices: map[string]Price{"gpt-5.1-codex-mini": {0.25, 2}, "gpt-5.1-codex": {1.25, 10}}},
	{Name: "gemini", Kind: CLI, Binary: "gemini", Install: "npm install -g @google/gemini-cli",
		CheapModel:  "gemini-2.5-flash-lite",
		KeyVars:     []string{"GEMINI_API_KEY", "GOOGLE_API_KEY"},
		WritesFiles: true, Browses: true, ReportsUsage: true, Concurrent: true,
		Prices: map[string]Price{"gemini-2.5-flash-lite": {0.10, 0.40}, "gemini-2.5-flash": {0.30, 2.50}, "gemini-2.5-pro": {1.25, 10}}},
	{Name: "openai", Kind: HTTP,
		Install: "set OPENAI_BASE_URL to an OpenAI-compatible endpoint (Ollama: http://localhost:11434/v1) and OPENAI_MODEL",
		KeyVars: []string{"OPENAI_API_KEY"},
		// Its own tool loop writes files and fetches pages (and searches
		// with RGIT_SEARXNG_URL); a model without tools answers in text.
		WritesFiles: true, Browses: true, ReportsUsage: true, Concurrent: true},
	{Name: "local", Kind: Builtin, Install: "built in",
		WritesFiles: true, Concurrent: true},
	{Name: "mock", Kind: Builtin, Install: "built in",
		WritesFiles: true, ReportsUsage: true, Concurrent: true},
}

// All returns the table, in order.
func All() []Backend { return slices.Clone(table) }

// Lookup returns the backend called name.
func Lookup(name string) (Backend, bool) {
	i := slices.IndexFunc(table, func(b Backend) bool { return b.Name == name })
	if i < 0 {
		return Backend{}, false
	}
	return table[i], true
}

// Names returns the names of the backends of the given kinds (all of them
// when none is given), in table order.
func Names(kinds ...Kind) []string {
	var out []string
	for _, b := range table {
		if len(kinds) == 0 || slices.Contains(kinds, b.Kind) {
			out = append(out, b.Name)
		}
	}
	return out
}

// KeyVars returns every backend's credential variables, sorted and
// without duplicates.
func KeyVars() []string {
	var out []string
	for _, b := range table {
		out = append(out, b.KeyVars...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// DefaultJobs is how many calls of b run at once unless the user says:
// one for a backend that cannot run calls concurrently, one per CPU for
// code inside rgit (its calls are CPU-bound), and 4 for CLIs and HTTP
// endpoints, whose calls mostly wait on a remote model.
func (b Backend) DefaultJobs() int {
	switch {
	case !b.Concurrent:
		return 1
	case b.Kind == Builtin:
		return runtime.NumCPU()
	}
	return 4
}

// Price returns the price of model, if known.
func (b Backend) Price(model string) (Price, bool) {
	p, ok := b.Prices[model]
	return p, ok
}

package catalog

import (
	"runtime"
	"slices"
	"strings"
	"testing"
)

// The table's rows must be complete for their kind: a CLI without a
// binary or install hint would break Auto and `rgit agents`.
func TestTableComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, b := range All() {
		if b.Name == "" || seen[b.Name] {
			t.Errorf("name %q empty or repeated", b.Name)
		}
		seen[b.Name] = true
		if (b.Kind == CLI) != (b.Binary != "") {
			t.Errorf("%s: kind %d with binary %q", b.Name, b.Kind, b.Binary)
		}
		if b.Install == "" {
			t.Errorf("%s: no install hint", b.Name)
		}
		if b.CheapEffort != "" && b.CheapModel == "" {
			t.Errorf("%s: a cheap effort without a cheap model", b.Name)
		}
		for _, k := range b.KeyVars {
			if k != strings.ToUpper(k) || strings.ContainsAny(k, "= ") {
				t.Errorf("%s: key variable %q", b.Name, k)
			}
		}
	}
}

func TestNames(t *testing.T) {
	tests := []struct {
		kinds []Kind
		want  []string
	}{
		{nil, []string{"opencode", "claude", "codex", "gemini", "openai", "local", "mock"}},
		{[]Kind{CLI}, []string{"opencode", "claude", "codex", "gemini"}},
		{[]Kind{HTTP, Builtin}, []string{"openai", "local", "mock"}},
	}
	for _, tt := range tests {
		if got := Names(tt.kinds...); !slices.Equal(got, tt.want) {
			t.Errorf("Names(%v) = %q, want %q", tt.kinds, got, tt.want)
		}
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		name               string
		ok                 bool
		cheap, writes, web bool
	}{
		{"claude", true, true, true, true},
		{"codex", true, true, true, true},
		{"opencode", true, false, true, true},
		{"local", true, false, true, false},
		{"gpt4", false, false, false, false},
	}
	for _, tt := range tests {
		b, ok := Lookup(tt.name)
		if ok != tt.ok || (b.CheapModel != "") != tt.cheap || b.WritesFiles != tt.writes || b.Browses != tt.web {
			t.Errorf("Lookup(%q) = %+v, %v", tt.name, b, ok)
		}
	}
}

func TestKeyVars(t *testing.T) {
	got := KeyVars()
	if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
		t.Errorf("KeyVars not sorted and unique: %q", got)
	}
	for _, k := range []string{"ANTHROPIC_API_KEY", "CODEX_API_KEY", "GEMINI_API_KEY", "OPENAI_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN"} {
		if !slices.Contains(got, k) {
			t.Errorf("KeyVars lacks %s", k)
		}
	}
}

func TestDefaultJobs(t *testing.T) {
	tests := []struct {
		b    Backend
		want int
	}{
		{Backend{Kind: CLI, Concurrent: true}, 4},
		{Backend{Kind: HTTP, Concurrent: true}, 4},
		{Backend{Kind: Builtin, Concurrent: true}, runtime.NumCPU()},
		{Backend{Kind: CLI}, 1},
		{Backend{Kind: Builtin}, 1},
	}
	for _, tt := range tests {
		if got := tt.b.DefaultJobs(); got != tt.want {
			t.Errorf("%+v: DefaultJobs = %d, want %d", tt.b, got, tt.want)
		}
	}
}

func TestPrice(t *testing.T) {
	b := Backend{Prices: map[string]Price{"m": {InputPerMTok: 3, OutputPerMTok: 15}}}
	if p, ok := b.Price("m"); !ok || p.InputPerMTok != 3 || p.OutputPerMTok != 15 {
		t.Errorf("Price(m) = %+v, %v", p, ok)
	}
	if _, ok := b.Price("other"); ok {
		t.Error("a model without a price has one")
	}
}

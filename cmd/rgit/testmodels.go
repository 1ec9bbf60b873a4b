package main

import (
	"context"

	"github.com/rgit-dev/rgit/agents/registry"
)

// The --test model selection, moved here unchanged from deps.go.

// testModel is spec (or the auto choice) with its backend's cheap model.
func testModel(spec string, opts registry.Options, auto func(registry.Options) (string, string)) string {
	if spec == "" || spec == "auto" {
		if spec, _ = auto(opts); spec == "" {
			return "auto" // nothing to use: resolving it says so, before any write
		}
	}
	backend, _, err := registry.Parse(spec)
	if err != nil {
		return spec
	}
	if m := registry.CheapModel(backend); m != "" {
		return backend + ":" + m
	}
	return spec
}

// foundBackends runs detection once: it starts every CLI's --version.
func foundBackends(opts registry.Options) map[string]bool {
	found := map[string]bool{}
	for _, st := range registry.Detect(context.Background(), opts) {
		found[st.Backend] = st.Found
	}
	return found
}

// backendOf is spec's backend, "" when spec does not parse.
func backendOf(spec string) string {
	backend, _, err := registry.Parse(spec)
	if err != nil {
		return ""
	}
	return backend
}

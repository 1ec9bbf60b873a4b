package registry

import (
	"fmt"

	"github.com/rgit-dev/rgit/agents/registry/catalog"
)

// Auto picks the research agent: the first of the table's CLIs (opencode,
// claude, codex, gemini) found on PATH with its default model, then the
// openai backend when OPENAI_BASE_URL and OPENAI_MODEL are set, else the
// built-in offline researcher. reason says why, for rgit to print.
func Auto(o Options) (spec, reason string) {
	return pick(o, func(b Backend) string { return b.DefaultModel })
}

// AutoReview is Auto for the review role, with each CLI's review model
// (opencode reviews with the seed's big-pickle).
func AutoReview(o Options) (spec, reason string) {
	return pick(o, func(b Backend) string {
		if b.ReviewModel != "" {
			return b.ReviewModel
		}
		return b.DefaultModel
	})
}

func pick(o Options, modelOf func(Backend) string) (spec, reason string) {
	for _, b := range catalog.All() {
		if b.Kind != catalog.CLI {
			continue
		}
		path, err := o.lookPath(b.Binary)
		if err != nil {
			continue
		}
		spec = b.Name
		if m := modelOf(b); m != "" {
			spec += ":" + m
		}
		return spec, fmt.Sprintf("%s found at %s", b.Binary, path)
	}
	base, model := o.getenv("OPENAI_BASE_URL"), o.getenv("OPENAI_MODEL")
	switch {
	case base != "" && model != "":
		// The URL itself is not repeated: it may carry credentials.
		return "openai:" + model, "no agent CLI on PATH; OPENAI_BASE_URL and OPENAI_MODEL are set"
	case base != "":
		return "local", "no agent CLI on PATH, and OPENAI_BASE_URL is set but OPENAI_MODEL is not: using the built-in offline researcher"
	}
	return "local", "no agent CLI on PATH (opencode, claude, codex, gemini) and OPENAI_BASE_URL is not set: using the built-in offline researcher"
}

// TestModels returns the cheap research and review models of seed 000's
// "Testing" table that `--test` switches to: Claude's Haiku researches and
// Codex's mini model reviews, the council's two CLI families.
func TestModels() (model, review string) {
	return "claude:" + CheapModel("claude"), "codex:" + CheapModel("codex")
}

// CheapModel returns the table's cheap model for a backend, so `--test`
// can keep the backend a user chose and only swap the model; "" when the
// table names none (opencode's defaults are already free).
func CheapModel(backend string) string {
	b, _ := catalog.Lookup(backend)
	return b.CheapModel
}

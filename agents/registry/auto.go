package registry

import "fmt"

// The seed's defaults for opencode (research and review), and the cheap
// models of seed 000's "Testing" table.
const (
	opencodeModel  = "opencode/minimax-m2.1-free"
	opencodeReview = "opencode/big-pickle"
	cheapClaude    = "claude-haiku-4-5-20251001"
	cheapCodex     = "gpt-5.1-codex-mini"
	cheapGemini    = "gemini-2.5-flash-lite"
)

// Auto picks the research agent: the first of opencode (with the seed's
// free model), claude, codex and gemini found on PATH, then the openai
// backend when OPENAI_BASE_URL and OPENAI_MODEL are set, else the built-in
// offline researcher. reason says why, for rgit to print.
func Auto(o Options) (spec, reason string) { return pick(o, opencodeModel) }

// AutoReview is Auto for the review role; opencode reviews with the
// seed's big-pickle model.
func AutoReview(o Options) (spec, reason string) { return pick(o, opencodeReview) }

func pick(o Options, opencodeDefault string) (spec, reason string) {
	for _, name := range CLIs {
		path, err := o.lookPath(name)
		if err != nil {
			continue
		}
		spec = name
		if name == "opencode" {
			spec = "opencode:" + opencodeDefault
		}
		return spec, fmt.Sprintf("%s found at %s", name, path)
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
	return "claude:" + cheapClaude, "codex:" + cheapCodex
}

// CheapModel returns the seed's cheap model for a CLI backend, so `--test`
// can keep the backend a user chose and only swap the model; "" when the
// seed names none (opencode's defaults are already free).
func CheapModel(backend string) string {
	switch backend {
	case "claude":
		return cheapClaude
	case "codex":
		return cheapCodex
	case "gemini":
		return cheapGemini
	}
	return ""
}

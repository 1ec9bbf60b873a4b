package registry

import (
	"fmt"
	"strings"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/registry/catalog"
)

// Auto picks the research agent: the first of the table's CLIs (opencode,
// claude, codex, gemini) found on PATH with its default model, then the
// openai backend when OPENAI_BASE_URL and OPENAI_MODEL are set, then the
// built-in offline researcher when o.Corpus names documents for it. reason
// says why, for rgit to print. When there is nothing to use, spec is "" and
// reason says what is missing: the offline researcher over the repository
// itself is no answer to an arbitrary question, so auto never picks it
// without a corpus (it stays available as --model local).
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
	noCLI := "no agent CLI on PATH (" + strings.Join(CLIs, ", ") + ")"
	switch {
	case base != "" && model != "":
		// The URL itself is not repeated: it may carry credentials.
		return "openai:" + model, noCLI + "; OPENAI_BASE_URL and OPENAI_MODEL are set"
	case len(o.Corpus) > 0:
		return "local", noCLI + ": the built-in offline researcher reads --corpus"
	case base != "":
		return "", noCLI + ", OPENAI_BASE_URL is set but OPENAI_MODEL is not, and no --corpus for the offline researcher"
	}
	return "", noCLI + ", OPENAI_BASE_URL is not set, and no --corpus for the offline researcher"
}

// NoAgentError is "auto" finding nothing to run (see Auto). It is
// agents.ErrNotInstalled: an environment the user must fix, before anything
// is written.
type NoAgentError struct {
	Reason string // what Auto found missing
}

func (e *NoAgentError) Error() string { return "no usable agent for --model auto: " + e.Reason }

// Is makes errors.Is(err, agents.ErrNotInstalled) true.
func (e *NoAgentError) Is(target error) bool { return target == agents.ErrNotInstalled }

// Hint lists the ways out, one per line: an agent CLI to install, the
// offline researcher over the user's own documents, or the mock agent.
func (e *NoAgentError) Hint() string {
	var installs []string
	for _, b := range catalog.All() {
		if b.Kind == catalog.CLI {
			installs = append(installs, "`"+b.Install+"`")
		}
	}
	return "install an agent CLI: " + strings.Join(installs, ", ") + "\n" +
		"or research your own documents offline: --model local --corpus DIR\n" +
		"or try rgit without an agent: --mock-mode"
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

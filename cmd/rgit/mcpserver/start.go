package mcpserver

import (
	"slices"
	"time"

	"github.com/rgit-dev/rgit/agents/registry"
	"github.com/rgit-dev/rgit/phases"
)

// Installed is the council member that stands for every agent CLI
// installed where the session runs.
const Installed = "installed"

// request checks research_start's arguments the way `rgit research` checks
// its flags, through the same phases.Config.Normalize, so that a tool
// error says what the CLI would say; then it fills rgit's defaults.
func (in startInput) request(repo string) (StartRequest, error) {
	if err := in.budgetArgs.check(); err != nil {
		return StartRequest{}, err
	}
	breadth, depth := defaultBreadth, defaultDepth
	if in.Breadth != nil {
		breadth = *in.Breadth
	}
	if in.Depth != nil {
		depth = *in.Depth
	}
	budget := time.Duration(in.TimeMinutes * float64(time.Minute))
	cfg := phases.Config{Topic: in.Topic, Name: in.Name, Breadth: breadth, Depth: depth,
		MaxIterations: in.MaxIterations, TimeBudget: budget, Yes: true}
	if _, err := cfg.Normalize(); err != nil {
		return StartRequest{}, err
	}
	if in.Model != "" && len(in.Council) > 0 {
		return StartRequest{}, badInput("pass model for one agent, or council for several", "model and council both given")
	}
	for _, spec := range []string{in.Model, in.ReviewModel} {
		if spec != "" && spec != "mock" {
			if err := checkSpec(spec); err != nil {
				return StartRequest{}, err
			}
		}
	}
	for _, spec := range in.Council {
		if spec != Installed {
			if err := checkSpec(spec); err != nil {
				return StartRequest{}, err
			}
		}
	}
	if len(in.Council) > 1 && slices.Contains(in.Council, Installed) {
		return StartRequest{}, badInput(`pass ["installed"] alone, or name the members`, "council %q mixes %q with named members", in.Council, Installed)
	}
	return StartRequest{
		Repo: repo, Topic: cfg.Topic, Name: in.Name, Breadth: breadth, Depth: depth, MaxIterations: in.MaxIterations,
		Model: in.Model, ReviewModel: in.ReviewModel, Council: in.Council, Test: in.Test,
		TimeBudget: budget, CostUSD: in.CostUSD, MaxTokens: in.MaxTokens,
	}, nil
}

// checkSpec checks an agent name as `rgit research --model` does.
func checkSpec(spec string) error {
	if _, _, err := registry.Parse(spec); err != nil {
		return badInput("name agents as backend:model, for example claude:claude-opus-4-6 or local", "%v", err)
	}
	return nil
}

func (in resumeInput) request(repo, name string) (ResumeRequest, error) {
	if err := in.budgetArgs.check(); err != nil {
		return ResumeRequest{}, err
	}
	return ResumeRequest{Repo: repo, Name: name, TimeBudget: time.Duration(in.TimeMinutes * float64(time.Minute)), CostUSD: in.CostUSD,
		MaxTokens: in.MaxTokens}, nil
}

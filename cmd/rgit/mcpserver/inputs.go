package mcpserver

// The tools' arguments. Their JSON schemas are inferred from these types
// (descriptions from the jsonschema tags, required = not omitempty) and
// given their limits in schemas.go; the check methods test the same
// limits with the messages rgit's CLI prints, because a client may call a
// tool without looking at its schema.

type repoArg struct {
	Repo string `json:"repo,omitempty" jsonschema:"path of the git repository to work in; default: the one rgit mcp was started in"`
}

type nameArg struct {
	Name string `json:"name,omitempty" jsonschema:"the session's name (see research_list); default: the repository's only session"`
}

type budgetArgs struct {
	TimeMinutes float64 `json:"time_minutes,omitempty" jsonschema:"wall-clock budget in minutes, a synthesis reserve kept; 0 for none"`
	CostUSD     float64 `json:"cost_usd,omitempty" jsonschema:"cost budget of the whole session in US dollars (rgit research --max-cost), a synthesis reserve kept; 0 for none"`
	MaxTokens   int64   `json:"max_tokens,omitempty" jsonschema:"token budget of the whole session, input plus output (rgit research --max-tokens); 0 for none"`
}

type startInput struct {
	Topic         string   `json:"topic" jsonschema:"the question or topic to research, in plain words"`
	Name          string   `json:"name,omitempty" jsonschema:"session name: 1-64 lowercase letters, digits, '.', '_' or '-'; default: a slug of the topic"`
	Breadth       *int     `json:"breadth,omitempty" jsonschema:"at most this many subtopics per topic, and top-level topics"`
	Depth         *int     `json:"depth,omitempty" jsonschema:"deepest subtopic level; 0 for no subtopics"`
	MaxIterations int      `json:"max_iterations,omitempty" jsonschema:"research-review cycles; default and minimum: breadth^(depth+1)+5"`
	Model         string   `json:"model,omitempty" jsonschema:"the research agent as backend:model (claude:claude-opus-4-6, codex:gpt-5.3-codex, gemini:gemini-2.5-pro, opencode:opencode/big-pickle, openai:llama3.1, local), auto, or mock for a deterministic session without AI calls"`
	ReviewModel   string   `json:"review_model,omitempty" jsonschema:"the review agent as backend:model; default: chosen like model"`
	Council       []string `json:"council,omitempty" jsonschema:"research as a council instead of one model: its members as backend or backend:model; [\"installed\"] takes every agent CLI installed here"`
	Test          bool     `json:"test,omitempty" jsonschema:"cheap models for every role and at most 2 research passes per topic"`
	budgetArgs
	repoArg
}

type statusInput struct {
	nameArg
	WaitSeconds int `json:"wait_seconds,omitempty" jsonschema:"wait up to this many seconds for a running session to end before answering; 0 answers at once"`
	repoArg
}

type reportInput struct {
	nameArg
	repoArg
}

type listInput struct {
	repoArg
}

type cancelInput struct {
	nameArg
	repoArg
}

type resumeInput struct {
	nameArg
	budgetArgs
	repoArg
}

// Limits shared by the schemas and the checks.
const (
	defaultBreadth = 3 // rgit research's own defaults
	defaultDepth   = 3
	maxBreadth     = 50
	maxDepth       = 10
	maxWait        = 45 // below the 60 s tool timeout some clients keep
)

func (b budgetArgs) check() error {
	if b.TimeMinutes < 0 {
		return badInput("pass time_minutes as 0 or more", "invalid time_minutes %g: must be 0 or more", b.TimeMinutes)
	}
	if b.CostUSD < 0 {
		return badInput("pass cost_usd as 0 or more", "invalid cost_usd %g: must be 0 or more", b.CostUSD)
	}
	if b.MaxTokens < 0 {
		return badInput("pass max_tokens as 0 or more", "invalid max_tokens %d: must be 0 or more", b.MaxTokens)
	}
	return nil
}

func (in statusInput) check() error {
	if in.WaitSeconds < 0 || in.WaitSeconds > maxWait {
		return badInput("pass wait_seconds from 0 to 45, and call research_status again to keep waiting",
			"invalid wait_seconds %d: must be 0 to %d", in.WaitSeconds, maxWait)
	}
	return nil
}

package mcpserver

import (
	"context"
	"time"
)

// Sessions is what the tools do. The server checks every argument first
// (the repository is a git repository, names are valid, a missing name is
// the repository's only session), so an implementation gets a repository
// root and a valid name. An error that the caller must fix is a
// *BadInputError, or a *phases.BadInputError as rgit's CLI reports it.
type Sessions interface {
	// Start checks the request as `rgit research` does, then starts the
	// session detached (its own process group, surviving this server)
	// and returns at once.
	Start(ctx context.Context, req StartRequest) (Started, error)
	// Status describes a session, running or not, including the outcome a
	// finished run recorded.
	Status(ctx context.Context, repo, name string) (StatusView, error)
	// Report returns the session's report once it is done.
	Report(ctx context.Context, repo, name string) (ReportView, error)
	// List describes every session in the repository.
	List(ctx context.Context, repo string) ([]ListItem, error)
	// Cancel asks a running session to stop; it stays resumable.
	Cancel(ctx context.Context, repo, name string) error
	// Resume starts a stopped or failed session again, detached.
	Resume(ctx context.Context, req ResumeRequest) (Started, error)
}

// StartRequest is research_start's arguments, checked.
type StartRequest struct {
	Repo          string   // repository root
	Topic         string   // trimmed, non-empty
	Name          string   // "" = a slug of the topic
	Breadth       int      // at least 1
	Depth         int      // at least 0
	MaxIterations int      // 0 = the minimum for the tree
	Model         string   // backend:model, "auto" or "mock"; "" = auto
	ReviewModel   string   // "" = auto
	Council       []string // members, backend or backend:model; "installed" = every agent CLI installed
	Test          bool     // cheap models, at most 2 passes per topic (--test)
	TimeBudget    time.Duration
	CostUSD       float64 // 0 = no cost budget (--max-cost)
	MaxTokens     int64   // 0 = no token budget (--max-tokens)
}

// ResumeRequest is research_resume's arguments, checked.
type ResumeRequest struct {
	Repo       string
	Name       string
	TimeBudget time.Duration
	CostUSD    float64
	MaxTokens  int64
}

// Started is a session that was started (or resumed) in the background.
type Started struct {
	Name        string `json:"name"`
	Branch      string `json:"branch"`
	ProgressLog string `json:"progress_log" jsonschema:"absolute path of the session's progress log, for tail -f"`
	PID         int    `json:"pid,omitempty"`
}

// State is where a session is, in one word.
type State string

// The states. A stopped session was cancelled or killed; a failed one ended
// with an error. Both keep their finished phases and can be resumed.
const (
	Running State = "running"
	Done    State = "done"
	Failed  State = "failed"
	Stopped State = "stopped"
)

// StatusView is research_status's answer.
type StatusView struct {
	Name          string   `json:"name"`
	Branch        string   `json:"branch"`
	Topic         string   `json:"topic"`
	State         State    `json:"state" jsonschema:"running, done, failed or stopped"`
	Phase         string   `json:"phase" jsonschema:"the last phase committed"`
	Iteration     int      `json:"iteration"`
	MaxIterations int      `json:"max_iterations"`
	Topics        Counts   `json:"topics"`
	Members       []string `json:"members,omitempty" jsonschema:"the agents researching and reviewing"`
	Usage         []Usage  `json:"usage,omitempty"`
	Events        []Event  `json:"events,omitempty" jsonschema:"recent progress, oldest first"`
	ProgressLog   string   `json:"progress_log,omitempty"`
	ExitStatus    *int     `json:"exit_status,omitempty" jsonschema:"the finished run's exit status, as rgit research exits"`
	Error         string   `json:"error,omitempty" jsonschema:"why the run failed or stopped"`
	Head          string   `json:"head,omitempty" jsonschema:"the session branch's last commit"`
}

// Counts is how many plan topics are complete.
type Counts struct {
	Complete int `json:"complete"`
	Total    int `json:"total"`
}

// Usage is what one backend cost so far.
type Usage struct {
	Backend      string  `json:"backend"`
	Calls        int     `json:"calls"`
	InputTokens  int64   `json:"input_tokens"`
	OutputTokens int64   `json:"output_tokens"`
	CostUSD      float64 `json:"cost_usd"`
	Seconds      float64 `json:"seconds"`
}

// Event is one line of progress.
type Event struct {
	Time time.Time `json:"time"`
	Text string    `json:"text"`
}

// ReportView is research_report's answer.
type ReportView struct {
	Name     string     `json:"name"`
	Branch   string     `json:"branch"`
	Finished bool       `json:"finished"`
	Title    string     `json:"title,omitempty"`
	Path     string     `json:"path,omitempty" jsonschema:"the report's path in the repository (on the session branch and, once merged, on yours)"`
	Markdown string     `json:"markdown,omitempty"`
	Status   StatusView `json:"status"`
}

// ListItem is one session of research_list.
type ListItem struct {
	Name          string `json:"name"`
	Topic         string `json:"topic"`
	State         State  `json:"state"`
	Phase         string `json:"phase"`
	Topics        Counts `json:"topics"`
	Iteration     int    `json:"iteration"`
	MaxIterations int    `json:"max_iterations"`
}

package phases

import "time"

// EventKind says what an Event reports.
type EventKind int

// The kinds of progress rgit reports.
const (
	EventNotice     EventKind = iota // something the user should know
	EventWarning                     // something went wrong but the loop goes on
	EventPhaseStart                  // an agent call begins
	EventPhaseDone                   // a phase is committed
	EventRetry                       // a failed attempt will be retried
	EventWait                        // backing off before a retry
	EventStarted                     // the run holds the session lock and the branch exists; Message names them
	EventCallDone                    // an agent call ended; sent only when calls run at once (--jobs)
)

// Event is one line of progress.
type Event struct {
	Kind      EventKind
	Phase     Phase
	Topic     string
	Iteration int
	Max       int // EventRetry: the retries an agent gets (--max-fix-attempts); else the iteration limit
	Attempt   int // EventRetry: this retry's number on its agent; else the attempt, 0 for the first
	Agent     string
	Message   string
	Commit    string
	Duration  time.Duration // the whole phase
	AgentTime time.Duration // inside the agent call
	Tokens    int64         // EventPhaseDone: the phase's tokens
	CostUSD   float64       // EventPhaseDone: the phase's cost
	Verdict   Verdict       // EventPhaseDone of a review: its verdict
	Gaps      int           // EventPhaseDone of a review: the gaps it named
}

// Reporter receives progress; cmd renders it. Implementations must be
// safe to call from one goroutine at a time.
type Reporter interface {
	Report(Event)
}

// ReporterFunc adapts a function to Reporter.
type ReporterFunc func(Event)

// Report calls f(e).
func (f ReporterFunc) Report(e Event) { f(e) }

// Summary is what a finished run tells the user.
type Summary struct {
	Name         string
	Branch       string
	Complete     int
	Total        int
	Iterations   int
	MaxIter      int
	AgentTime    time.Duration
	Retried      int
	Exhausted    []string
	LimitReached bool
	Warning      string
	Target       string // the branch the report was merged into ("" with --no-merge)
	MergeCommit  string
	ReportPath   string // relative to the repository root
	Finished     bool   // the whole session is complete
	// Wall is this run's wall time; CriticalPath the longest chain of
	// dependent agent calls of this run, from their recorded durations,
	// which no --jobs can beat; Jobs the calls allowed in flight.
	Wall         time.Duration
	CriticalPath time.Duration
	TreePath     time.Duration // CriticalPath without the rule that orders research adding subtopics
	Jobs         int
	Council      string  // a council's members and who was left out; "" for a plain session
	Citations    string  // "citations verified N/M" once the report is written; "" before
	Spend        Spend   // the session's usage over all its runs (budget.go)
	Budget       *Budget // its budgets; nil when none
}

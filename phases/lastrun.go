package phases

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/rgit-dev/rgit/phases/layout"
)

// RunState says where a session's last run is.
type RunState string

// The run states. A stopped run was cancelled or killed, a failed one
// ended with an error: both keep their committed phases and can be
// resumed.
const (
	RunRunning RunState = "running"
	RunDone    RunState = "done"
	RunFailed  RunState = "failed"
	RunStopped RunState = "stopped"
)

// Outcome is outcome.json: what the last run of a session did. cmd writes
// it when a run has taken the lock (state running) and again when the run
// ends, so `rgit wait` and `rgit status` can tell the end of a run whose
// process is gone, detached or not. It is never committed: it describes a
// process on this machine, not the research.
type Outcome struct {
	State      RunState   `json:"state"`
	ExitStatus *int       `json:"exit_status,omitempty"` // as `rgit research` exits; nil while running or when killed
	Summary    string     `json:"summary,omitempty"`     // one line: topics, iterations, report
	Error      string     `json:"error,omitempty"`       // redacted
	Hint       string     `json:"hint,omitempty"`
	PID        int        `json:"pid"`
	Host       string     `json:"host"`
	Token      string     `json:"token,omitempty"` // the run's lock token
	Detached   bool       `json:"detached,omitempty"`
	Started    time.Time  `json:"started"`
	Finished   *time.Time `json:"finished,omitempty"`
}

// WriteOutcome replaces the session's outcome file atomically: a reader
// sees the old outcome or the new one, never a torn file.
func WriteOutcome(lay layout.Layout, o Outcome) error {
	data, err := json.MarshalIndent(o, "", "  ")
	if err != nil {
		return fmt.Errorf("encode outcome: %w", err)
	}
	if err := replaceFile(lay.Outcome(), lay.OutcomeTemp(), append(data, '\n')); err != nil {
		return fmt.Errorf("write outcome: %w", err)
	}
	return nil
}

// ReadOutcome reads the outcome file as written; ok is false when there
// is none (no run recorded one here).
func ReadOutcome(lay layout.Layout) (o Outcome, ok bool, err error) {
	data, err := os.ReadFile(lay.Outcome())
	if errors.Is(err, os.ErrNotExist) {
		return Outcome{}, false, nil
	}
	if err != nil {
		return Outcome{}, false, fmt.Errorf("read outcome: %w", err)
	}
	if err := json.Unmarshal(data, &o); err != nil {
		return Outcome{}, false, fmt.Errorf("read %s: %w", lay.Outcome(), err)
	}
	return o, true, nil
}

// lastRun is the session's last run as of now: its recorded outcome, except
// that a live lock means a run is going (its outcome may not be written
// yet), and a run recorded as running whose lock is gone or stale and
// whose process is gone was killed: stopped, resumable. ok is false when neither says anything.
func lastRun(lay layout.Layout, now time.Time) (Outcome, bool, error) {
	o, ok, err := ReadOutcome(lay)
	if err != nil {
		return Outcome{}, false, err
	}
	host, _ := os.Hostname()
	lock, locked, lerr := ReadLock(lay)
	if lerr != nil {
		return Outcome{}, false, lerr
	}
	live := false
	if locked {
		stale, _ := lock.stale(host, now)
		live = !stale
	}
	switch {
	case live && (!ok || o.Token != lock.Token || o.State != RunRunning):
		// A run holds the lock but has not recorded itself yet.
		return Outcome{State: RunRunning, PID: lock.PID, Host: lock.Host, Token: lock.Token, Started: lock.Started}, true, nil
	case live || !ok || o.State != RunRunning:
		return o, ok, nil
	case o.Host == host && o.PID > 0 && pidAlive(o.PID):
		// The run has let go of the lock and is writing how it ended.
		return o, true, nil
	}
	o.State = RunStopped
	o.Error = fmt.Sprintf("its run (pid %d on %s) ended without recording an outcome: it was killed", o.PID, o.Host)
	o.Hint = "resume it with: rgit research --name " + lay.Name() + " --resume"
	return o, true, nil
}

// LastRun describes the last run of session name: running, or how it
// ended (see Outcome). ok is false when no run recorded an outcome here
// and none is running: a session made elsewhere or by an older rgit.
func (in Inspector) LastRun(name string) (Outcome, bool, error) {
	poll, err := in.LastRunPoller(name)
	if err != nil {
		return Outcome{}, false, err
	}
	return poll()
}

// LastRunPoller returns a function that answers as LastRun does, having
// found the repository once: `rgit wait` asks every tenth of a second, and
// reading two small files costs the running session next to nothing.
func (in Inspector) LastRunPoller(name string) (func() (Outcome, bool, error), error) {
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	s, err := in.open()
	if err != nil {
		return nil, err
	}
	lay := layout.New(s.Root(), name)
	s.Close()
	return func() (Outcome, bool, error) { return lastRun(lay, in.clock().Now()) }, nil
}

// withLastRun adds the session's last run to info, when one is known.
func (in Inspector) withLastRun(root string, info SessionInfo) SessionInfo {
	if info.Name == "" {
		return info
	}
	if o, ok, err := lastRun(layout.New(root, info.Name), in.clock().Now()); err == nil && ok {
		info.LastRun = &o
	}
	return info
}

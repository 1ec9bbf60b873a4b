package proctest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

// Grace is the signal grace of the backends under test: short, since the
// fakes' hang scenario ignores SIGINT and SIGTERM.
const Grace = 100 * time.Millisecond

// Prompt is the prompt of a fixture's task; the fakes answer with it and
// write it to the output.
const Prompt = "Research the topic X thoroughly."

// Fixture is a session workspace prepared for one fake agent call: the
// environment entries select the scenario and point the fake's log,
// session store and grandchild pid file into t.TempDir().
type Fixture struct {
	Root    string   // the repository root
	Dir     string   // the workspace, Root/.research/s
	Output  string   // Dir/progress/topic.md, which the fake writes on success
	Log     string   // FAKE_AGENT_LOG
	PIDFile string   // FAKE_AGENT_PIDFILE
	Env     []string // to pass as the backend's extra environment
	// Task is a research task in Dir writing Output; Backend.Fixture sets
	// its Model and the Agent to run it.
	Task  agents.Task
	Agent agents.Agent
}

// NewFixture prepares a workspace for the given fake scenario; extra env
// entries are appended.
func NewFixture(t *testing.T, scenario string, extra ...string) Fixture {
	t.Helper()
	root := t.TempDir()
	f := Fixture{Root: root, Dir: filepath.Join(root, ".research", "s"),
		Log: filepath.Join(root, "calls.jsonl"), PIDFile: filepath.Join(root, "grandchild.pid")}
	f.Output = filepath.Join(f.Dir, "progress", "topic.md")
	f.Task = agents.Task{Phase: agents.PhaseResearch, Prompt: Prompt, Dir: f.Dir, Root: f.Root, Output: f.Output}
	state := filepath.Join(root, "sessions")
	for _, d := range []string{f.Dir, state} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f.Env = append([]string{"FAKE_AGENT_SCENARIO=" + scenario, "FAKE_AGENT_LOG=" + f.Log,
		"FAKE_AGENT_STATE=" + state, "FAKE_AGENT_WRITE=progress/topic.md", "FAKE_AGENT_PIDFILE=" + f.PIDFile}, extra...)
	return f
}

// Run runs f.Task with f.Agent.
func (f Fixture) Run() (agents.Result, error) {
	return f.Agent.Run(context.Background(), f.Task)
}

// Calls returns the fake's logged calls so far.
func (f Fixture) Calls(t *testing.T) []Call {
	t.Helper()
	calls, err := ReadLog(f.Log)
	if err != nil {
		t.Fatal(err)
	}
	return calls
}

// GrandchildDead polls briefly for the hang scenario's grandchild to be
// gone (SIGKILL delivery is asynchronous) and reports whether it is.
func (f Fixture) GrandchildDead(t *testing.T) bool {
	t.Helper()
	for i := 0; i < 300; i++ {
		alive, err := PIDAlive(f.PIDFile)
		if err != nil {
			t.Fatalf("no grandchild pid: %v", err)
		}
		if !alive {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

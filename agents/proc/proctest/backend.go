package proctest

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
)

// Backend is what the shared tests need to know of a CLI backend.
type Backend struct {
	Name  string // the backend's name, also the name of its fake
	Model string // the model of a fixture's task
	// New returns the backend running binary with env as its extra
	// environment and Grace as its signal grace.
	New func(binary string, env []string) agents.Agent
	// Resume returns the consecutive arguments that resume session id.
	Resume func(id string) []string
	// UnknownSession is a session id the fake has never seen, and
	// UnknownError what the backend's error for resuming it says.
	UnknownSession, UnknownError string
	// AddDir is the flag granting the folder of an output outside the
	// workspace; "" for a backend that needs none.
	AddDir string
}

// Fixture prepares a workspace for the fake scenario and the backend on
// the fake to run the task in it.
func (b Backend) Fixture(t *testing.T, scenario string, env ...string) Fixture {
	t.Helper()
	f := NewFixture(t, scenario, env...)
	f.Agent = b.New(Fake(b.Name), f.Env)
	f.Task.Model = b.Model
	return f
}

// RunOK runs f, which must be a fixture of the "ok" scenario, and checks
// what every backend makes of it: the fake's answer, a session id, the
// output written in the workspace and listed in Result.Files, and a call
// run in the workspace with args among its arguments. It returns the
// result and the call for the backend's own checks.
func (b Backend) RunOK(t *testing.T, f Fixture, args ...string) (agents.Result, Call) {
	t.Helper()
	res, err := f.Run()
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "fake "+b.Name+" answer: "+f.Task.Prompt || res.SessionID == "" {
		t.Errorf("text %q session %q", res.Text, res.SessionID)
	}
	if !slices.Equal(res.Files, []string{"progress/topic.md"}) {
		t.Errorf("files %q", res.Files)
	}
	if b, err := os.ReadFile(f.Task.Output); err != nil || string(b) != f.Task.Prompt {
		t.Errorf("the agent could not write its output in the workspace: %v", err)
	}
	c := f.Calls(t)[0]
	if c.Cwd != f.Task.Dir {
		t.Errorf("cwd %q, want %q", c.Cwd, f.Task.Dir)
	}
	for _, w := range args {
		if !slices.Contains(c.Args, w) {
			t.Errorf("args %q lack %q", c.Args, w)
		}
	}
	return res, c
}

// Failure is a fake scenario the backend must turn into an
// *agents.CallError of Kind whose message contains Msg.
type Failure struct {
	Scenario string
	Env      []string // extra environment for the fake
	Kind     error
	Msg      string
	Exit     int // the exit status the error reports
}

// TestFailures runs every failure scenario on the backend.
func (b Backend) TestFailures(t *testing.T, failures []Failure) {
	for _, tt := range failures {
		t.Run(tt.Scenario, func(t *testing.T) {
			_, err := b.Fixture(t, tt.Scenario, tt.Env...).Run()
			var ce *agents.CallError
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v, want a CallError", err)
			}
			if ce.Kind != tt.Kind || !strings.Contains(ce.Msg, tt.Msg) || ce.Exit != tt.Exit || ce.Backend != b.Name {
				t.Errorf("got %s kind %v exit %d msg %q, want %v %d %q", ce.Backend, ce.Kind, ce.Exit, ce.Msg, tt.Kind, tt.Exit, tt.Msg)
			}
		})
	}
}

// containsRun reports whether want stands in args as consecutive elements.
func containsRun(args, want []string) bool {
	for i := 0; i+len(want) <= len(args); i++ {
		if slices.Equal(args[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

package proctest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

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

// TestCommon runs the tests every CLI backend passes the same way on its
// fake: the timeout kills the process group, a session resumes, an output
// outside the workspace is granted, a missing binary is ErrNotInstalled
// and concurrent calls stay apart.
func (b Backend) TestCommon(t *testing.T) {
	t.Run("timeout kills the group", b.testTimeout)
	t.Run("resume", b.testResume)
	t.Run("output outside the workspace", b.testOutsideOutput)
	t.Run("not installed", b.testNotInstalled)
	t.Run("concurrent", b.testConcurrent)
}

func (b Backend) testTimeout(t *testing.T) {
	f := b.Fixture(t, "hang")
	f.Task.Timeout = 2 * time.Second // time for the fake to spawn its grandchild
	res, err := f.Run()
	if !errors.Is(err, agents.ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if res.SessionID == "" {
		t.Error("the session id seen before the hang was lost")
	}
	if !f.GrandchildDead(t) {
		t.Error("the grandchild survived the timeout")
	}
}

func (b Backend) testResume(t *testing.T) {
	f := b.Fixture(t, "ok")
	first, err := f.Run()
	if err != nil {
		t.Fatal(err)
	}
	f.Task.SessionID = first.SessionID
	second, err := f.Run()
	if err != nil || second.SessionID != first.SessionID {
		t.Fatalf("resume: %v, session %q vs %q", err, second.SessionID, first.SessionID)
	}
	if args, want := f.Calls(t)[1].Args, b.Resume(first.SessionID); !containsRun(args, want) {
		t.Errorf("resume args %q lack %q", args, want)
	}
	f.Task.SessionID = b.UnknownSession
	if _, err := f.Run(); err == nil || !strings.Contains(err.Error(), b.UnknownError) {
		t.Errorf("unknown session: %v, want %q", err, b.UnknownError)
	}
}

func (b Backend) testOutsideOutput(t *testing.T) {
	if b.AddDir == "" {
		t.Skipf("%s needs no grant for an output outside the workspace", b.Name)
	}
	f := b.Fixture(t, "ok")
	if _, err := f.Run(); err != nil {
		t.Fatal(err)
	}
	f.Task.Output = filepath.Join(f.Root, "reports", "s", "report.md")
	if _, err := f.Run(); err != nil {
		t.Fatal(err)
	}
	calls := f.Calls(t)
	if slices.Contains(calls[0].Args, b.AddDir) {
		t.Errorf("args %q grant a folder for an output inside the workspace", calls[0].Args)
	}
	if args, want := calls[1].Args, []string{b.AddDir, filepath.Dir(f.Task.Output)}; !containsRun(args, want) {
		t.Errorf("args %q lack %q", args, want)
	}
}

func (b Backend) testNotInstalled(t *testing.T) {
	a := b.New(filepath.Join(t.TempDir(), b.Name), nil)
	_, err := a.Run(context.Background(), agents.Task{Dir: t.TempDir(), Prompt: "x"})
	if !errors.Is(err, agents.ErrNotInstalled) {
		t.Errorf("err = %v", err)
	}
}

func (b Backend) testConcurrent(t *testing.T) {
	f := b.Fixture(t, "ok")
	sessions := make([]string, 4)
	errs := make(chan error, len(sessions))
	for i := range sessions {
		go func() {
			task := f.Task
			task.Output = filepath.Join(f.Dir, fmt.Sprintf("out%d.md", i))
			res, err := f.Agent.Run(context.Background(), task)
			sessions[i] = res.SessionID
			errs <- err
		}()
	}
	for range sessions {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	slices.Sort(sessions)
	if len(slices.Compact(sessions)) != len(sessions) {
		t.Errorf("sessions %q are not distinct", sessions)
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

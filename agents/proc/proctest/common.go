package proctest

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

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

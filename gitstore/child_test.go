//go:build unix

package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// Crash tests run this package's test binary again as a child that does
// one thing with a Store and is killed at a kill point: for real, with
// SIGKILL, so no deferred cleanup runs.

const childEnv = "GITSTORE_TEST_CHILD" // action: snapshot, merge or session

// TestChild is the child's entry point; it does nothing in a normal run.
func TestChild(t *testing.T) {
	action := os.Getenv(childEnv)
	if action == "" {
		t.Skip("crash tests' child process only")
	}
	s, err := Open(os.Getenv("GITSTORE_TEST_REPO"))
	if err == nil {
		s.Notify(func(msg string) { fmt.Println("notice:", msg) })
		err = childAction(s, action)
		s.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

func childAction(s *Store, action string) error {
	ctx := context.Background()
	switch action {
	case "snapshot":
		ws := os.Getenv("GITSTORE_TEST_DIR")
		if err := os.WriteFile(filepath.Join(ws, "state.json"), []byte("child\n"), 0o644); err != nil {
			return err
		}
		_, err := s.Snapshot(ctx, SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: ".research/x"}}, Message: "child"})
		return err
	case "merge":
		_, err := s.Merge(ctx, MergeOptions{Source: "research/x", Target: "main", Paths: []string{"reports/x/report.md"}, Message: "merge"})
		return err
	case "session":
		return runSession(ctx, s, os.Getenv("GITSTORE_TEST_SESSION"))
	}
	return fmt.Errorf("unknown child action %q", action)
}

// child is one run of the child process.
type child struct {
	out    string
	killed bool // died of SIGKILL
	err    error
}

// runChild runs the test binary as a child doing action in repo, with env
// added to its environment.
func runChild(t *testing.T, repo, action string, env ...string) child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), gitEnv...)
	cmd.Env = append(cmd.Env, childEnv+"="+action, "GITSTORE_TEST_REPO="+repo)
	cmd.Env = append(cmd.Env, env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	c := child{out: out.String(), err: err}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			c.killed, c.err = true, nil
		}
	}
	return c
}

// killAtEnv is the environment that kills the child the n-th time it
// reaches point.
func killAtEnv(point string, n int) string {
	return KillAtEnv + "=" + point + ":" + strconv.Itoa(n)
}

// notices returns the child's notice lines.
func (c child) notices() []string {
	var out []string
	for _, l := range strings.Split(c.out, "\n") {
		if m, ok := strings.CutPrefix(l, "notice: "); ok {
			out = append(out, m)
		}
	}
	return out
}

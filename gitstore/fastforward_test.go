package gitstore

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A local branch behind its remote-tracking branch moves up to it; one
// that is up to date, ahead, diverged or missing is left alone.
func TestFastForwardRemote(t *testing.T) {
	origin := t.TempDir()
	run := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(cmd.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run(origin, "init", "-q", "-b", "main")
	run(origin, "commit", "-q", "--allow-empty", "-m", "one")
	run(origin, "commit", "-q", "--allow-empty", "-m", "two")
	for _, b := range []string{"behind", "same", "ahead", "diverged"} {
		run(origin, "branch", "research/"+b)
	}
	clone := filepath.Join(t.TempDir(), "clone")
	run(filepath.Dir(clone), "clone", "-q", origin, clone)
	run(clone, "branch", "research/behind", "origin/research/behind~1")
	run(clone, "branch", "research/same", "origin/research/same")
	run(clone, "checkout", "-q", "-b", "research/ahead", "origin/research/ahead")
	run(clone, "commit", "-q", "--allow-empty", "-m", "three")
	run(clone, "checkout", "-q", "-b", "research/diverged", "origin/research/diverged~1")
	run(clone, "commit", "-q", "--allow-empty", "-m", "other two")
	run(clone, "checkout", "-q", "main")

	s, err := Open(clone)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	run(clone, "branch", "research/local-only")
	rev := func(b string) string { return run(clone, "rev-parse", b) }
	tests := []struct {
		branch, remote string
		err            error
		at             string // where the branch must be afterwards
	}{
		{"research/behind", "origin", nil, rev("origin/research/behind")},
		{"research/same", "", nil, rev("research/same")},
		{"research/ahead", "", nil, rev("research/ahead")},
		{"research/diverged", "", nil, rev("research/diverged")},
		{"research/missing", "", nil, ""},
		{"research/local-only", "", ErrNotFound, rev("research/local-only")},
	}
	for _, tc := range tests {
		remote, err := s.FastForwardRemote(tc.branch)
		if remote != tc.remote || !errors.Is(err, tc.err) {
			t.Errorf("%s: FastForwardRemote = %q, %v; want %q, %v", tc.branch, remote, err, tc.remote, tc.err)
		}
		if got, _ := s.Head(tc.branch); got != tc.at {
			t.Errorf("%s at %q, want %q", tc.branch, got, tc.at)
		}
	}
	run(clone, "fsck", "--strict")
}

package gitstore

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A session branch pushed elsewhere and fetched here becomes a local branch.
func TestTrackRemote(t *testing.T) {
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
	run(origin, "commit", "-q", "--allow-empty", "-m", "start")
	run(origin, "branch", "research/x")
	want := run(origin, "rev-parse", "research/x")
	clone := filepath.Join(t.TempDir(), "clone")
	run(filepath.Dir(clone), "clone", "-q", origin, clone)

	s, err := Open(clone)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Head("research/x"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("local branch before tracking: %v", err)
	}
	remote, err := s.TrackRemote("research/x")
	if err != nil || remote != "origin" {
		t.Fatalf("TrackRemote = %q, %v", remote, err)
	}
	if got, _ := s.Head("research/x"); got != want {
		t.Errorf("local branch at %s, want %s", got, want)
	}
	if remote, err := s.TrackRemote("research/x"); err != nil || remote != "" {
		t.Errorf("second TrackRemote = %q, %v; want a no-op", remote, err)
	}
	if _, err := s.TrackRemote("research/none"); !errors.Is(err, ErrNotFound) {
		t.Errorf("TrackRemote of a missing branch: %v", err)
	}
	run(clone, "fsck", "--strict")
}

package gitstore

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 12, point 3: a run that lost its claim on the session (its Guard
// fails) moves no ref and changes nothing the user sees.
func TestGuardFencesRefMove(t *testing.T) {
	lost := errors.New("run token 1 is no longer the session's")
	cases := []struct {
		name string
		op   func(s *Store, repo string) error
		ref  string
	}{
		{"snapshot", func(s *Store, _ string) error {
			ws := filepath.Join(t.TempDir(), "ws")
			writeFile(t, filepath.Join(ws, "state.json"), "{\"step\": 2}\n")
			_, err := s.Snapshot(context.Background(), SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: ".research/x"}},
				Guard: func() error { return lost }})
			return err
		}, "research/x"},
		{"merge", func(s *Store, _ string) error {
			_, err := s.Merge(context.Background(), MergeOptions{Source: "research/x", Target: "main", Paths: []string{"reports/x/report.md"},
				Guard: func() error { return lost }})
			return err
		}, "main"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			repo := newRepo(t)
			s := open(t, repo)
			session(t, s, strings.TrimSpace(git(t, repo, "rev-parse", "main")), "# R\n")
			before, refs := userState(t, repo), git(t, repo, "show-ref")
			err := tc.op(s, repo)
			if !errors.Is(err, ErrFenced) || !errors.Is(err, lost) {
				t.Fatalf("got %v, want ErrFenced wrapping the guard's error", err)
			}
			if after := git(t, repo, "show-ref"); after != refs {
				t.Errorf("refs moved:\n%s\n->\n%s", refs, after)
			}
			if after := userState(t, repo); after != before {
				t.Errorf("user state changed:\n%s\n->\n%s", before, after)
			}
		})
	}
}

// The guard runs under the store lock: a takeover done inside WithLock is
// seen by the next ref move of the run it displaced, never half-way.
func TestGuardSeesTakeover(t *testing.T) {
	repo := newRepo(t)
	old, taker := open(t, repo), open(t, repo)
	token := "run-1"
	check := func(mine string) func() error {
		return func() error {
			if token != mine {
				return errors.New("session taken over by " + token)
			}
			return nil
		}
	}
	ws := filepath.Join(repo, ".research", "x")
	n := 0
	step := func(s *Store, mine string) error {
		n++
		writeFile(t, filepath.Join(ws, "state.json"), fmt.Sprintf("{\"run\": %q, \"step\": %d}\n", mine, n))
		_, err := s.Snapshot(context.Background(), SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: ".research/x"}}, Guard: check(mine)})
		return err
	}
	if err := step(old, "run-1"); err != nil {
		t.Fatal(err)
	}
	if err := taker.WithLock(func() error { token = "run-2"; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := step(old, "run-1"); !errors.Is(err, ErrFenced) {
		t.Errorf("the displaced run committed: %v", err)
	}
	if err := step(taker, "run-2"); err != nil {
		t.Errorf("the new owner cannot commit: %v", err)
	}
	if got := git(t, repo, "show", "research/x:.research/x/state.json"); got != "{\"run\": \"run-2\", \"step\": 3}\n" {
		t.Errorf("branch holds %q", got)
	}
}

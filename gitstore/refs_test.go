package gitstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestCasRefRefusals(t *testing.T) {
	repo := newRepo(t)
	s := open(t, repo)
	main := plumbing.NewHash(strings.TrimSpace(git(t, repo, "rev-parse", "main")))
	other := plumbing.NewHash(strings.Repeat("1", 40))
	cases := []struct {
		name     string
		ref      string
		old      plumbing.Hash
		gitLocks bool // git holds <ref>.lock, as during its own update
	}{
		{"create over an existing ref", "refs/heads/main", plumbing.ZeroHash, false},
		{"stale old value", "refs/heads/main", other, false},
		{"missing ref with an old value (go-git #2399)", "refs/heads/research/none", main, false},
		{"ref locked by git", "refs/heads/main", main, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := git(t, repo, "show-ref")
			lock := filepath.Join(repo, ".git", filepath.FromSlash(tc.ref)+".lock")
			if tc.gitLocks {
				writeFile(t, lock, "")
				defer os.Remove(lock)
			}
			err := s.WithLock(func() error { return s.casRef(plumbing.ReferenceName(tc.ref), other, tc.old, "test") })
			if err == nil {
				t.Fatal("casRef succeeded")
			}
			if !tc.gitLocks && !errors.Is(err, errRefChanged) {
				t.Errorf("casRef: %v, want errRefChanged", err)
			}
			if after := git(t, repo, "show-ref"); after != before {
				t.Errorf("refs changed:\n%s\n->\n%s", before, after)
			}
			if _, err := os.Stat(filepath.Join(repo, ".git", "refs", "heads", "research", "none")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a failed update left a ref file: %v", err)
			}
		})
	}
	if err := s.WithLock(func() error { return s.casRef("refs/heads/research/new", main, plumbing.ZeroHash, "create") }); err != nil {
		t.Fatalf("create-only casRef: %v", err)
	}
	if log, err := s.Log("research/new", 1); err != nil || len(log) != 1 || log[0].Hash != main.String() {
		t.Fatalf("Log(limit 1) = %v, %v", log, err)
	}
	fsck(t, repo)
}

// A lock on the user's branch left by a killed git is git's to clean up:
// Merge says which file is in the way and changes nothing meanwhile.
func TestMergeMeetsDeadGitLock(t *testing.T) {
	repo := newRepo(t)
	s := open(t, repo)
	session(t, s, strings.TrimSpace(git(t, repo, "rev-parse", "main")), "# R\n")
	lock := filepath.Join(repo, ".git", "refs", "heads", "main.lock")
	writeFile(t, lock, "")
	before, refs := userState(t, repo), git(t, repo, "show-ref")
	_, err := s.Merge(context.Background(), MergeOptions{Source: "research/x", Target: "main", Paths: []string{"reports/x/report.md"}})
	if err == nil || !strings.Contains(err.Error(), lock+" exists") {
		t.Fatalf("Merge: %v; want one naming %s", err, lock)
	}
	if userState(t, repo) != before || git(t, repo, "show-ref") != refs {
		t.Error("Merge changed the worktree, index or refs while git held main")
	}
	if _, err := os.Stat(lock); err != nil {
		t.Errorf("the user's lock was removed: %v", err)
	}
}

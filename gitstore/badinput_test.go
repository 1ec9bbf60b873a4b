package gitstore

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 12, point 4: every check that can fail on the user's input runs
// before the first write, so a refusal leaves .git byte-identical.
func TestBadInputWritesNothing(t *testing.T) {
	snapshot := func(branch string) func(s *Store, repo string) error {
		return func(s *Store, repo string) error {
			ws := filepath.Join(repo, ".research", "x")
			writeFile(t, filepath.Join(ws, "state.json"), "{}\n")
			_, err := s.Snapshot(context.Background(), SnapshotOptions{Branch: branch, Mounts: []Mount{{Dir: ws, Tree: ".research/x"}}})
			return err
		}
	}
	cases := []struct {
		name  string
		setup []string // git commands
		op    func(s *Store, repo string) error
		want  error
	}{
		{"branch research is a file: check", []string{"branch research"},
			func(s *Store, _ string) error { return s.CheckBranchName("research/x") }, ErrRefNameConflict},
		{"branch research is a file: snapshot", []string{"branch research"}, snapshot("research/x"), ErrRefNameConflict},
		{"branch research is packed", []string{"branch research", "pack-refs --all"}, snapshot("research/x"), ErrRefNameConflict},
		{"a branch below the name", []string{"branch research/x/old"},
			func(s *Store, _ string) error { return s.CheckBranchName("research/x") }, ErrRefNameConflict},
		{"a packed branch below the name", []string{"branch research/x/old", "pack-refs --all"}, snapshot("research/x"), ErrRefNameConflict},
		{"merge into a missing branch: check", nil,
			func(s *Store, _ string) error { return s.CheckMergeTarget("nosuch") }, ErrBranchNotFound},
		{"merge into a missing branch", []string{"branch research/x"}, func(s *Store, _ string) error {
			_, err := s.Merge(context.Background(), MergeOptions{Source: "research/x", Target: "nosuch", Paths: []string{"README.md"}})
			return err
		}, ErrBranchNotFound},
		{"resume a session that exists nowhere", nil,
			func(s *Store, _ string) error { _, err := s.TrackRemote("research/nosuch"); return err }, ErrNotFound},
		{"exclude that is already there", []string{"config core.excludesFile /dev/null"}, func(s *Store, repo string) error {
			return s.AddExclude("/.research/")
		}, nil},
		{"reads", nil, func(s *Store, _ string) error {
			if _, err := s.Head("main"); err != nil {
				return err
			}
			if _, err := s.Branches(""); err != nil {
				return err
			}
			if _, err := s.IsShallow(); err != nil {
				return err
			}
			if err := s.CheckMergeTarget("main"); err != nil {
				return err
			}
			return s.CheckBranchName("research/new")
		}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			repo := newRepo(t)
			for _, c := range tc.setup {
				git(t, repo, strings.Fields(c)...)
			}
			writeFile(t, filepath.Join(repo, ".git", "info", "exclude"), "# mine\n/.research/\n")
			before := treeListing(t, filepath.Join(repo, ".git"))
			s, err := Open(repo)
			if err != nil {
				t.Fatal(err)
			}
			err = tc.op(s, repo)
			s.Close()
			if !errors.Is(err, tc.want) || (err != nil && strings.Contains(err.Error(), "\n")) {
				t.Errorf("got %v, want %v in one line", err, tc.want)
			}
			if after := treeListing(t, filepath.Join(repo, ".git")); after != before {
				t.Errorf(".git changed:\n%s\n->\n%s", before, after)
			}
		})
	}
}

// A branch left as empty folders (by a deleted branch below it) is
// created as git would: the folders give way.
func TestSnapshotOverEmptyRefFolders(t *testing.T) {
	repo := newRepo(t)
	git(t, repo, "branch", "research/x/old")
	git(t, repo, "branch", "-D", "research/x/old")
	s := open(t, repo)
	if err := s.CheckBranchName("research/x"); err != nil {
		t.Fatalf("CheckBranchName over empty folders: %v", err)
	}
	session(t, s, "", "# R\n")
	fsck(t, repo)
}

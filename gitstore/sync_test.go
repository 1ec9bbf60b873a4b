package gitstore

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// crashedMerge leaves repo as a crash of the old merge order did: main
// moved to the merge commit, while the index and working tree were not
// updated yet. prev, when set, is the report main had before the merge.
func crashedMerge(t *testing.T, repo string, s *Store, prev string) {
	t.Helper()
	if prev != "" {
		writeFile(t, filepath.Join(repo, "reports", "x", "report.md"), prev)
		git(t, repo, "add", ".")
		git(t, repo, "commit", "-q", "-m", "previous report")
	}
	session(t, s, strings.TrimSpace(git(t, repo, "rev-parse", "main")), "# Report\n")
	git(t, repo, "branch", "merged")
	h, err := s.Merge(context.Background(), MergeOptions{Source: "research/x", Target: "merged", Paths: []string{"reports/x"}})
	if err != nil {
		t.Fatal(err)
	}
	git(t, repo, "update-ref", "refs/heads/main", h)
}

// Issue 12, point 1: after a crash between moving the target and updating
// its index, SyncCheckedOut puts the report into the index and working tree
// (only the report's paths, never the user's own changes).
func TestSyncCheckedOut(t *testing.T) {
	report := filepath.Join("reports", "x", "report.md")
	cases := []struct {
		name     string
		prev     string                          // main's report before the merge
		setup    func(t *testing.T, repo string) // after the crash
		branch   string                          // synced branch
		repaired []string                        // want
		kept     []string                        // want
		status   string                          // git status --porcelain after README.md's line
	}{
		{"neither index nor disk has the report", "", nil, "main", []string{"reports/x/report.md"}, nil, "?? notes.txt\n"},
		{"the session's copy on disk, none in the index (D and ??)", "", func(t *testing.T, repo string) {
			writeFile(t, filepath.Join(repo, report), "# Report\n")
		}, "main", []string{"reports/x/report.md"}, nil, "?? notes.txt\n"},
		{"index and disk hold the version before the merge", "old\n", nil, "main", []string{"reports/x/report.md"}, nil, "?? notes.txt\n"},
		{"the user edited the report on disk", "", func(t *testing.T, repo string) {
			writeFile(t, filepath.Join(repo, report), "my own words\n")
		}, "main", nil, []string{"reports/x/report.md"}, "D  reports/x/report.md\n?? notes.txt\n?? reports/\n"},
		{"the user staged other content", "old\n", func(t *testing.T, repo string) {
			writeFile(t, filepath.Join(repo, report), "staged by me\n")
			git(t, repo, "add", report)
		}, "main", nil, []string{"reports/x/report.md"}, "M  reports/x/report.md\n?? notes.txt\n"},
		{"the user committed the deletion; the session's copy stays untracked", "", func(t *testing.T, repo string) {
			writeFile(t, filepath.Join(repo, report), "# Report\n")
			git(t, repo, "commit", "-q", "-m", "the user's next commit")
		}, "main", nil, nil, "?? notes.txt\n?? reports/\n"},
		{"a branch checked out nowhere", "", nil, "merged", nil, nil, "D  reports/x/report.md\n?? notes.txt\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			repo := newRepo(t)
			s := open(t, repo)
			crashedMerge(t, repo, s, tc.prev)
			writeFile(t, filepath.Join(repo, "README.md"), "edited, not staged\n")
			writeFile(t, filepath.Join(repo, "notes.txt"), "untracked\n")
			if tc.setup != nil {
				tc.setup(t, repo)
			}
			disk, _ := os.ReadFile(filepath.Join(repo, report))
			res, err := s.SyncCheckedOut(context.Background(), tc.branch, []string{"reports/x"})
			if err != nil {
				t.Fatal(err)
			}
			var repaired, kept []string
			for _, r := range res {
				if r.Root != repo {
					t.Errorf("synced %s, want %s", r.Root, repo)
				}
				repaired, kept = append(repaired, r.Repaired...), append(kept, r.Kept...)
			}
			if !reflect.DeepEqual(repaired, tc.repaired) || !reflect.DeepEqual(kept, tc.kept) {
				t.Errorf("repaired %q, kept %q; want %q, %q", repaired, kept, tc.repaired, tc.kept)
			}
			want := " M README.md\n" + tc.status
			if st := git(t, repo, "status", "--porcelain"); st != want {
				t.Errorf("git status:\n%s\nwant:\n%s", st, want)
			}
			now, _ := os.ReadFile(filepath.Join(repo, report))
			switch {
			case len(tc.repaired) > 0 && string(now) != "# Report\n":
				t.Errorf("report on disk %q", now)
			case len(tc.repaired) == 0 && string(now) != string(disk):
				t.Errorf("report on disk changed from %q to %q", disk, now)
			}
			fsck(t, repo)
		})
	}
}

// A worktree already in step with its branch is read, never written.
func TestSyncCheckedOutInStepWritesNothing(t *testing.T) {
	repo := newRepo(t)
	s := open(t, repo)
	session(t, s, strings.TrimSpace(git(t, repo, "rev-parse", "main")), "# Report\n")
	if _, err := s.Merge(context.Background(), MergeOptions{Source: "research/x", Target: "main", Paths: []string{"reports/x"}}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(repo, "README.md"), "edited, not staged\n")
	before := treeListing(t, repo)
	res, err := s.SyncCheckedOut(context.Background(), "main", []string{"reports/x"})
	if err != nil || len(res) != 1 || len(res[0].Repaired)+len(res[0].Kept) != 0 {
		t.Fatalf("SyncCheckedOut = %+v, %v; want nothing to do", res, err)
	}
	if after := treeListing(t, repo); after != before {
		t.Errorf("repository changed:\n%s\n->\n%s", before, after)
	}
}

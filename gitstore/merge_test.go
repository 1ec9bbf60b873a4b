package gitstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// session makes research/x from the repo's main with a report and workspace
// files, the way the research loop leaves it.
func session(tb testing.TB, s *Store, base, report string) string {
	tb.Helper()
	dir := tb.TempDir()
	ws, rep := filepath.Join(dir, "ws"), filepath.Join(dir, "rep")
	writeFile(tb, filepath.Join(ws, "state.json"), "{}\n")
	writeFile(tb, filepath.Join(rep, "report.md"), report)
	h, err := s.Snapshot(context.Background(), SnapshotOptions{
		Branch: "research/x", Base: base, Message: "session",
		Mounts: []Mount{{Dir: ws, Tree: ".research/x"}, {Dir: rep, Tree: "reports/x"}},
	})
	if err != nil {
		tb.Fatal(err)
	}
	return h
}

func TestMergeIntoCheckedOutBranch(t *testing.T) {
	for _, paths := range [][]string{{"reports/x/report.md"}, {"reports/x"}} {
		t.Run(paths[0], func(t *testing.T) {
			repo := newRepo(t)
			s := open(t, repo)
			main := strings.TrimSpace(git(t, repo, "rev-parse", "main"))
			src := session(t, s, main, "# Report\n")
			// The user has staged, unstaged and untracked work in progress.
			writeFile(t, filepath.Join(repo, "staged.txt"), "staged\n")
			git(t, repo, "add", "staged.txt")
			writeFile(t, filepath.Join(repo, "README.md"), "edited but not staged\n")
			writeFile(t, filepath.Join(repo, "notes.txt"), "untracked\n")
			before := userState(t, repo)

			h, err := s.Merge(context.Background(), MergeOptions{Source: "research/x", Target: "main", Paths: paths,
				Message: "rgit: merge research/x", Trailers: []Trailer{{"Rgit-Phase", "merge"}}})
			if err != nil {
				t.Fatal(err)
			}
			if got := git(t, repo, "log", "-1", "--format=%P", "main"); got != main+" "+src+"\n" {
				t.Errorf("merge parents %q, want [main, session]", got)
			}
			if got := strings.TrimSpace(git(t, repo, "rev-parse", "HEAD")); got != h {
				t.Errorf("HEAD %s, want the merge %s", got, h)
			}
			if got := git(t, repo, "ls-tree", "-r", "--name-only", "main"); got != "README.md\nreports/x/report.md\n" {
				t.Errorf("merged tree:\n%s", got)
			}
			if after := userState(t, repo); after != before {
				t.Errorf("user state changed:\n%s\n->\n%s", before, after)
			}
			if st := git(t, repo, "status", "--porcelain", "--", "reports"); st != "" {
				t.Errorf("git status shows the report: %s", st)
			}
			if b, _ := os.ReadFile(filepath.Join(repo, "reports", "x", "report.md")); string(b) != "# Report\n" {
				t.Errorf("report on disk: %q", b)
			}
			fsck(t, repo)
			if again, err := s.Merge(context.Background(), MergeOptions{Source: "research/x", Target: "main", Paths: paths}); !errors.Is(err, ErrNothingToCommit) || again != h {
				t.Errorf("second merge = %s, %v; want %s, ErrNothingToCommit", again, err, h)
			}
		})
	}
}

func TestMergeConflictChangesNothing(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, repo string)
	}{
		{"target committed the path", func(t *testing.T, repo string) {
			writeFile(t, filepath.Join(repo, "reports", "x", "report.md"), "mine\n")
			git(t, repo, "add", ".")
			git(t, repo, "commit", "-q", "-m", "user report")
		}},
		{"untracked file at the path", func(t *testing.T, repo string) {
			writeFile(t, filepath.Join(repo, "reports", "x", "report.md"), "untracked draft\n")
		}},
		{"staged file at the path", func(t *testing.T, repo string) {
			writeFile(t, filepath.Join(repo, "reports", "x", "report.md"), "staged draft\n")
			git(t, repo, "add", ".")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			repo := newRepo(t)
			s := open(t, repo)
			session(t, s, strings.TrimSpace(git(t, repo, "rev-parse", "main")), "# Report\n")
			tc.setup(t, repo)
			before, refs := userState(t, repo), git(t, repo, "show-ref")
			_, err := s.Merge(context.Background(), MergeOptions{Source: "research/x", Target: "main", Paths: []string{"reports/x/report.md"}})
			if !errors.Is(err, ErrConflict) {
				t.Fatalf("Merge: %v, want ErrConflict", err)
			}
			if after := userState(t, repo); after != before {
				t.Errorf("user state changed:\n%s\n->\n%s", before, after)
			}
			if after := git(t, repo, "show-ref"); after != refs {
				t.Errorf("refs changed:\n%s\n->\n%s", refs, after)
			}
		})
	}
}

func TestMergeUnbornTarget(t *testing.T) {
	repo := t.TempDir()
	git(t, repo, "init", "-q", "-b", "main")
	s := open(t, repo)
	src := session(t, s, "", "# R\n")
	h, err := s.Merge(context.Background(), MergeOptions{Source: "research/x", Target: "main", Paths: []string{"reports/x/report.md"}, Message: "merge"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(git(t, repo, "log", "-1", "--format=%P", h)); got != src {
		t.Errorf("parents %q, want only the session %s", got, src)
	}
	if st := git(t, repo, "status", "--porcelain"); st != "" {
		t.Errorf("git status after merging into an unborn branch:\n%s", st)
	}
	fsck(t, repo)
}

func TestMergeIntoLinkedWorktree(t *testing.T) {
	repo := newRepo(t)
	linked := filepath.Join(t.TempDir(), "linked")
	git(t, repo, "worktree", "add", "-q", "-b", "side", linked)
	writeFile(t, filepath.Join(linked, "wip.txt"), "work in progress\n")
	s := open(t, repo) // opened from the main worktree, target lives in the linked one
	session(t, s, strings.TrimSpace(git(t, repo, "rev-parse", "side")), "# R\n")
	before, mainBefore := userState(t, linked), userState(t, repo)
	if _, err := s.Merge(context.Background(), MergeOptions{Source: "research/x", Target: "side", Paths: []string{"reports/x/report.md"}}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(linked, "reports", "x", "report.md")); err != nil || string(b) != "# R\n" {
		t.Errorf("report in linked worktree: %q, %v", b, err)
	}
	if after := userState(t, linked); after != before {
		t.Errorf("linked worktree state changed:\n%s\n->\n%s", before, after)
	}
	if after := userState(t, repo); after != mainBefore {
		t.Errorf("main worktree changed:\n%s\n->\n%s", mainBefore, after)
	}
	if _, err := os.Stat(filepath.Join(repo, "reports")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("report written into the main worktree: %v", err)
	}
}

func TestMergeTargetNotCheckedOut(t *testing.T) {
	repo := newRepo(t)
	git(t, repo, "branch", "release")
	s := open(t, repo)
	session(t, s, strings.TrimSpace(git(t, repo, "rev-parse", "main")), "# R\n")
	before := userState(t, repo)
	if _, err := s.Merge(context.Background(), MergeOptions{Source: "research/x", Target: "release", Paths: []string{"reports/x/report.md"}}); err != nil {
		t.Fatal(err)
	}
	if got := git(t, repo, "show", "release:reports/x/report.md"); got != "# R\n" {
		t.Errorf("release has %q", got)
	}
	if after := userState(t, repo); after != before {
		t.Errorf("worktree of main changed:\n%s\n->\n%s", before, after)
	}
	if _, err := s.Merge(context.Background(), MergeOptions{Source: "research/x", Target: "release", Paths: []string{"nope.md"}}); !errors.Is(err, ErrNotFound) {
		t.Errorf("merging a path the source lacks: %v", err)
	}
}

func TestMergeSeparateGitDir(t *testing.T) {
	wt, gd := filepath.Join(t.TempDir(), "wt"), filepath.Join(t.TempDir(), "repo.git")
	git(t, t.TempDir(), "init", "-q", "-b", "main", "--separate-git-dir", gd, wt)
	writeFile(t, filepath.Join(wt, "README.md"), "hi\n")
	git(t, wt, "add", ".")
	git(t, wt, "commit", "-q", "-m", "init")
	s := open(t, wt)
	session(t, s, strings.TrimSpace(git(t, wt, "rev-parse", "main")), "# R\n")
	if _, err := s.Merge(context.Background(), MergeOptions{Source: "research/x", Target: "main", Paths: []string{"reports/x/report.md"}}); err != nil {
		t.Fatal(err)
	}
	if st := git(t, wt, "status", "--porcelain"); st != "" {
		t.Errorf("git status after merging into a worktree with a separate git dir:\n%s", st)
	}
}

func TestMergeWaitsForIndexLock(t *testing.T) {
	repo := newRepo(t)
	s := open(t, repo)
	session(t, s, strings.TrimSpace(git(t, repo, "rev-parse", "main")), "# R\n")
	// The user's git holds the index while the merge starts, and lets go
	// once the merge has met the lock.
	lock := filepath.Join(repo, ".git", "index.lock")
	writeFile(t, lock, "")
	waited := 0
	setHook(t, func(point string) {
		if point == pointIndexWait {
			waited++
			os.Remove(lock)
		}
	})
	if _, err := s.Merge(context.Background(), MergeOptions{Source: "research/x", Target: "main", Paths: []string{"reports/x/report.md"}}); err != nil {
		t.Fatal(err)
	}
	if waited != 1 {
		t.Errorf("merge waited %d times for index.lock, want 1", waited)
	}
	if st := git(t, repo, "status", "--porcelain"); st != "" {
		t.Errorf("git status after the index lock was released:\n%s", st)
	}
}

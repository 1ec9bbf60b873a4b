//go:build unix

package gitstore

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 12, point 2: a <ref>.lock left by a run killed during a ref update
// must not make the session unresumable. The next writer removes it and
// says so in one line.
func TestStaleRefLock(t *testing.T) {
	cases := []struct {
		name   string
		killAt string        // the child snapshot dies here; "" = no child
		age    time.Duration // else: a foreign lock this old
		says   string        // in the notice; "" = no notice
		moved  bool          // the killed child's commit is on the branch
	}{
		{"killed after creating the lock", pointRefLock, 0, "left by rgit (pid", false},
		{"killed after writing the lock", pointRefWrite, 0, "left by rgit (pid", false},
		{"killed after the rename", pointRefRename, 0, "", true},
		{"killed before the lock", pointSnapshotCommit, 0, "", false},
		{"a foreign lock a minute old", "", time.Minute, "1m0s old", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			repo := newRepo(t)
			ws := filepath.Join(t.TempDir(), "ws")
			s := open(t, repo)
			writeFile(t, filepath.Join(ws, "state.json"), "first\n")
			first, err := s.Snapshot(context.Background(), SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: ".research/x"}}})
			if err != nil {
				t.Fatal(err)
			}
			s.Close()
			lock := filepath.Join(repo, ".git", "refs", "heads", "research", "x.lock")
			if tc.killAt != "" {
				c := runChild(t, repo, "snapshot", "GITSTORE_TEST_DIR="+ws, killAtEnv(tc.killAt, 1))
				if !c.killed {
					t.Fatalf("child not killed at %s (%v):\n%s", tc.killAt, c.err, c.out)
				}
			} else {
				writeFile(t, lock, first+"\n")
				old := time.Now().Add(-tc.age)
				if err := os.Chtimes(lock, old, old); err != nil {
					t.Fatal(err)
				}
			}
			parent := strings.TrimSpace(git(t, repo, "rev-parse", "research/x"))
			if moved := parent != first; moved != tc.moved {
				t.Fatalf("branch moved by the killed child: %v, want %v", moved, tc.moved)
			}

			var notices []string
			s = open(t, repo)
			s.Notify(func(msg string) { notices = append(notices, msg) })
			writeFile(t, filepath.Join(ws, "state.json"), "resumed\n")
			h, err := s.Snapshot(context.Background(), SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: ".research/x"}}})
			if err != nil {
				t.Fatalf("snapshot after the crash: %v", err)
			}
			if got := strings.TrimSpace(git(t, repo, "rev-parse", h+"^")); got != parent {
				t.Errorf("new head's parent %s, want %s", got, parent)
			}
			switch {
			case tc.says == "" && len(notices) > 0, tc.says != "" && (len(notices) != 1 || !strings.Contains(notices[0], tc.says)):
				t.Errorf("notices %q, want one with %q", notices, tc.says)
			}
			if _, err := os.Stat(lock); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("lock still there: %v", err)
			}
			if b, _ := os.ReadFile(filepath.Join(repo, ".git", "rgit", "store.lock")); len(b) != 0 {
				t.Errorf("ref move note left: %q", b)
			}
			fsckAfterCrash(t, repo)
		})
	}
}

// Issue 12, point 1: rgit is killed during the merge, at the moment the
// user's branch moves in the old order (before the index update) or in the
// new one (before the ref update); then the user commits, and rgit
// resumes. The report must end up on main, in the index and on disk. The
// kill comes from a git on PATH that kills rgit when it is asked to do
// the step, so the test needs no kill point inside the package.
func TestMergeKilledThenUserCommits(t *testing.T) {
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Skip("needs git")
	}
	for _, step := range []string{"update-index", "update-ref"} {
		t.Run(step, func(t *testing.T) {
			repo := newRepo(t)
			s := open(t, repo)
			session(t, s, strings.TrimSpace(git(t, repo, "rev-parse", "main")), "# Report\n")
			s.Close()
			bin := t.TempDir()
			writeFile(t, filepath.Join(bin, "git"), "#!/bin/sh\nfor a in \"$@\"; do [ \"$a\" = "+step+" ] && { kill -9 $PPID; exit 1; }; done\nexec "+realGit+" \"$@\"\n")
			os.Chmod(filepath.Join(bin, "git"), 0o755)
			if c := runChild(t, repo, "merge", "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH")); !c.killed {
				t.Fatalf("child not killed at git %s (%v):\n%s", step, c.err, c.out)
			}
			writeFile(t, filepath.Join(repo, "mine.txt"), "the user's next commit\n")
			git(t, repo, "add", "mine.txt")
			git(t, repo, "commit", "-q", "-m", "mine")

			s = open(t, repo) // the resume, as phases does it
			if theirs, err := s.ReadFile("main", "reports/x/report.md"); err != nil || string(theirs) != "# Report\n" {
				if _, err := s.Merge(context.Background(), MergeOptions{Source: "research/x", Target: "main", Paths: []string{"reports/x/report.md"}}); err != nil {
					t.Fatalf("resumed merge: %v", err)
				}
			}
			if _, err := s.SyncCheckedOut(context.Background(), "main", []string{"reports/x/report.md"}); err != nil {
				t.Fatal(err)
			}
			if got := git(t, repo, "show", "main:reports/x/report.md"); got != "# Report\n" {
				t.Errorf("main has %q", got)
			}
			if st := git(t, repo, "status", "--porcelain"); st != "" {
				t.Errorf("git status:\n%s", st)
			}
			fsckAfterCrash(t, repo)
		})
	}
}

//go:build unix

package main

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rgit-dev/rgit/gitstore"
)

// TestTortureKillPoints kills the rgit binary with SIGKILL at 30 seeded
// random moments of mock sessions: inside a phase commit (objects written,
// commit written, <ref>.lock created, written, renamed) and inside the
// merge into the user's checked-out main (commit written, worktree
// written, index written, main moved), each at a random occurrence. The
// user has an unstaged edit and an untracked file all along, and commits
// their own work after every third kill. After each kill a resume must
// exit 0, and then: no commit ever seen on a branch is lost, every
// finished report is on main, in the index and on disk, git status shows
// only the user's own changes, no ref lock is left, and git fsck --strict
// is clean. (gitstore/torture_test.go does the same to the store alone;
// this one goes through phases, the session lock and the CLI.)
func TestTortureKillPoints(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 60 processes")
	}
	const rounds = 30
	seed := int64(20261127)
	if v, err := strconv.ParseInt(os.Getenv("RGIT_TORTURE_SEED"), 10, 64); err == nil {
		seed = v
	}
	rng := rand.New(rand.NewSource(seed))
	repo := newRepo(t)
	writeTestFile(t, filepath.Join(repo, "README.md"), "# project\n")
	gitOut(t, repo, "add", "README.md")
	gitOut(t, repo, "commit", "-q", "-m", "readme")
	writeTestFile(t, filepath.Join(repo, "README.md"), "# project\n\nthe user's edit, not staged\n")
	writeTestFile(t, filepath.Join(repo, "notes.txt"), "the user's untracked notes\n")
	commits := phaseCommits(t)
	heads := map[string]bool{}
	seen := func() {
		out, _ := gitTry(repo, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/")
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			heads[l] = true
		}
	}
	kills := map[string]int{}
	for i := range rounds {
		name := fmt.Sprintf("t%02d", i)
		args := []string{"research", "--mock-mode", "--breadth", "1", "--depth", "0", "--name", name, "Why is the sea salty? " + name}
		point := gitstore.KillPoints()[rng.Intn(len(gitstore.KillPoints()))]
		n := 1
		if !strings.HasPrefix(point, "merge:") {
			n = 1 + rng.Intn(commits)
		}
		where := fmt.Sprintf("seed %d round %d: killed at %s:%d", seed, i, point, n)
		kills[point]++
		cmd := rgitCmd(t, repo, args...)
		cmd.Env = append(cmd.Env, gitstore.KillAtEnv+"="+point+":"+strconv.Itoa(n))
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("%s: rgit was not killed (%v):\n%s", where, err, out)
		}
		seen()
		if i%3 == 2 {
			writeTestFile(t, filepath.Join(repo, name+".txt"), "user\n")
			gitOut(t, repo, "add", name+".txt")
			gitOut(t, repo, "commit", "-q", "-m", "user "+name)
			seen()
		}
		if out, err := rgitCmd(t, repo, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s: resume: %v\n%s", where, err, out)
		}
		seen()
		checkRound(t, repo, where, i, heads)
	}
	t.Logf("%d rounds survived (seed %d); kills per point %v", rounds, seed, kills)
}

// phaseCommits is how many commits a breadth 1 depth 0 mock session makes
// on its branch: how many times each snapshot and ref kill point is reached.
func phaseCommits(t *testing.T) int {
	dir := newRepo(t)
	if out, err := rgitCmd(t, dir, "research", "--mock-mode", "--breadth", "1", "--depth", "0", "--name", "count", "Why?").CombinedOutput(); err != nil {
		t.Fatalf("clean run: %v\n%s", err, out)
	}
	n, err := strconv.Atoi(strings.TrimSpace(gitOut(t, dir, "rev-list", "--count", "main^1..research/count")))
	if err != nil || n < 5 {
		t.Fatalf("a clean session made %d commits (%v)", n, err)
	}
	return n
}

// checkRound asserts what every round must leave.
func checkRound(t *testing.T, repo, where string, round int, heads map[string]bool) {
	t.Helper()
	for rh := range heads {
		ref, h, _ := strings.Cut(rh, " ")
		if _, err := gitTry(repo, "merge-base", "--is-ancestor", h, ref); err != nil {
			t.Fatalf("%s: %s lost commit %s", where, ref, h)
		}
	}
	index := gitOut(t, repo, "ls-files", "-s", "--", "reports")
	for j := 0; j <= round; j++ {
		p := fmt.Sprintf("reports/t%02d/report.md", j)
		blob := strings.TrimSpace(gitOut(t, repo, "rev-parse", "main:"+p))
		if want := strings.TrimSpace(gitOut(t, repo, "rev-parse", fmt.Sprintf("research/t%02d:%s", j, p))); blob != want {
			t.Fatalf("%s: main has %s as %s, the session %s", where, p, blob, want)
		}
		if !strings.Contains(index, blob+" 0\t"+p+"\n") {
			t.Fatalf("%s: %s (%s) is not in the index:\n%s", where, p, blob, index)
		}
		if disk := strings.TrimSpace(gitOut(t, repo, "hash-object", p)); disk != blob {
			t.Fatalf("%s: %s on disk is %s, want %s", where, p, disk, blob)
		}
	}
	if st := gitOut(t, repo, "status", "--porcelain", "--untracked-files=all"); st != " M README.md\n?? notes.txt\n" {
		t.Fatalf("%s: git status shows more than the user's own changes:\n%s", where, st)
	}
	locks, _ := filepath.Glob(filepath.Join(repo, ".git", "refs", "heads", "*", "*.lock"))
	if more, _ := filepath.Glob(filepath.Join(repo, ".git", "refs", "heads", "*.lock")); len(locks)+len(more) > 0 {
		t.Fatalf("%s: ref locks left: %v %v", where, locks, more)
	}
	if out, err := gitTry(repo, "fsck", "--strict", "--no-progress", "--no-dangling"); err != nil || strings.TrimSpace(out) != "" {
		t.Fatalf("%s: git fsck --strict: %v\n%s", where, err, out)
	}
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

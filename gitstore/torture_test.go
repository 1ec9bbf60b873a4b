//go:build unix

package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// sessionSteps is how many phase commits a torture session makes before
// it merges its report.
const sessionSteps = 3

// reportText is the report session name ends with.
func reportText(name string) string { return "# Report " + name + "\n\nFindings.\n" }

// runSession plays a research session the way phases does, resuming from
// the branch when it exists: restore the workspace, commit the remaining
// steps, then merge the report into main, or, when main has it already,
// repair main's worktree.
func runSession(ctx context.Context, s *Store, name string) error {
	branch, path := "research/"+name, "reports/"+name+"/report.md"
	ws, rep := filepath.Join(s.Root(), ".research", name), filepath.Join(s.Root(), "reports", name)
	mounts := []Mount{{Dir: ws, Tree: ".research/" + name}, {Dir: rep, Tree: "reports/" + name}}
	if err := s.CheckBranchName(branch); err != nil {
		return err
	}
	if err := s.CheckMergeTarget("main"); err != nil {
		return err
	}
	if err := s.AddExclude("/.research/"); err != nil {
		return err
	}
	step := 0
	if _, err := s.Head(branch); err == nil {
		if err := s.Restore(branch, mounts, nil); err != nil {
			return err
		}
		b, err := os.ReadFile(filepath.Join(ws, "state"))
		if err != nil {
			return err
		}
		step, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	base, err := s.Head("main")
	if err != nil {
		return err
	}
	for step < sessionSteps {
		step++
		for p, content := range map[string]string{
			filepath.Join(ws, "state"):                        strconv.Itoa(step) + "\n",
			filepath.Join(ws, fmt.Sprintf("step%d.md", step)): fmt.Sprintf("step %d of %s\n", step, name),
			filepath.Join(rep, "report.md"):                   reportText(name)[:len(reportText(name))*step/sessionSteps],
		} {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				return err
			}
		}
		if _, err := s.Snapshot(ctx, SnapshotOptions{Branch: branch, Base: base, Mounts: mounts, Message: fmt.Sprintf("step %d", step)}); err != nil {
			return err
		}
	}
	mine, err := s.ReadFile(branch, path)
	if err != nil {
		return err
	}
	if theirs, err := s.ReadFile("main", path); err != nil || !bytes.Equal(theirs, mine) {
		_, err = s.Merge(ctx, MergeOptions{Source: branch, Target: "main", Paths: []string{path}, Message: "Merge " + branch})
		if !errors.Is(err, ErrNothingToCommit) {
			return err
		}
	}
	res, err := s.SyncCheckedOut(ctx, "main", []string{path})
	for _, r := range res {
		for _, p := range r.Repaired {
			fmt.Println("notice: repaired", p)
		}
	}
	return err
}

// killPoints are the kill points of one session run, each with how often
// a run from scratch reaches it.
var killPoints = []struct {
	point string
	times int
}{
	{pointSnapshotObjects, sessionSteps}, {pointSnapshotCommit, sessionSteps},
	{pointRefLock, sessionSteps}, {pointRefWrite, sessionSteps}, {pointRefRename, sessionSteps},
	{pointMergeCommit, 1}, {pointMergeWorktree, 1}, {pointMergeIndex, 1}, {pointMergeRef, 1},
}

// TestTortureKill kills a session with SIGKILL at 30 random kill points
// (a seeded choice of point and occurrence, inside snapshots, ref updates
// and the merge), lets the user commit their own work after every third
// kill, and resumes. After every round: every branch head ever seen is an
// ancestor of the branch, every report is in main's tree, in the index and
// on disk, git status shows only the user's own changes, and git fsck
// --strict is clean.
func TestTortureKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 60 processes")
	}
	const rounds = 30
	seed := int64(20261212)
	if v, err := strconv.ParseInt(os.Getenv("GITSTORE_TORTURE_SEED"), 10, 64); err == nil {
		seed = v
	}
	rng := rand.New(rand.NewSource(seed))
	repo := newRepo(t)
	writeFile(t, filepath.Join(repo, "README.md"), "the user's edit, not staged\n")
	writeFile(t, filepath.Join(repo, "notes.txt"), "the user's untracked notes\n")
	heads := map[string]bool{} // "ref hash" of every head seen
	seen := func() {
		for _, line := range strings.Split(strings.TrimSpace(git(t, repo, "show-ref", "--heads")), "\n") {
			if h, ref, ok := strings.Cut(line, " "); ok {
				heads[ref+" "+h] = true
			}
		}
	}
	recovered, kills := map[string]int{}, map[string]int{}
	for i := range rounds {
		name := fmt.Sprintf("t%02d", i)
		kp := killPoints[rng.Intn(len(killPoints))]
		n := 1 + rng.Intn(kp.times)
		where := fmt.Sprintf("seed %d, round %d, session %s, killed at %s:%d", seed, i, name, kp.point, n)
		kills[kp.point]++
		c := runChild(t, repo, "session", "GITSTORE_TEST_SESSION="+name, killAtEnv(kp.point, n))
		if !c.killed {
			t.Fatalf("%s: the child was not killed (%v):\n%s", where, c.err, c.out)
		}
		seen()
		if i%3 == 2 { // the user's next commit, before the resume
			writeFile(t, filepath.Join(repo, name+".txt"), "user\n")
			git(t, repo, "add", name+".txt")
			git(t, repo, "commit", "-q", "-m", "user "+name)
			seen()
		}
		c = runChild(t, repo, "session", "GITSTORE_TEST_SESSION="+name)
		if c.err != nil || c.killed {
			t.Fatalf("%s: resume failed (%v):\n%s", where, c.err, c.out)
		}
		for _, msg := range c.notices() {
			recovered[strings.Fields(msg)[0]]++
		}
		seen()
		checkTorture(t, repo, where, i, heads)
	}
	t.Logf("%d rounds survived (seed %d); kills per point %v; notices on resume %v", rounds, seed, kills, recovered)
}

// checkTorture asserts the state every round must leave.
func checkTorture(t *testing.T, repo, where string, round int, heads map[string]bool) {
	t.Helper()
	for rh := range heads {
		ref, h, _ := strings.Cut(rh, " ")
		if _, err := gitErr(repo, "merge-base", "--is-ancestor", h, ref); err != nil {
			t.Fatalf("%s: %s lost commit %s", where, ref, h)
		}
	}
	index := git(t, repo, "ls-files", "-s", "--", "reports")
	tree := git(t, repo, "ls-tree", "-r", "main", "--", "reports")
	for j := 0; j <= round; j++ {
		p := fmt.Sprintf("reports/t%02d/report.md", j)
		blob := strings.TrimSpace(git(t, repo, "rev-parse", "main:"+p))
		if got := git(t, repo, "cat-file", "blob", blob); got != reportText(fmt.Sprintf("t%02d", j)) {
			t.Fatalf("%s: main has %s as %q", where, p, got)
		}
		if !strings.Contains(index, blob+" 0\t"+p+"\n") || !strings.Contains(tree, blob+"\t"+p+"\n") {
			t.Fatalf("%s: %s (%s) missing from the index or main's tree:\n%s\n%s", where, p, blob, index, tree)
		}
		if b, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(p))); err != nil || string(b) != reportText(fmt.Sprintf("t%02d", j)) {
			t.Fatalf("%s: %s on disk: %q, %v", where, p, b, err)
		}
	}
	if st := git(t, repo, "status", "--porcelain"); st != " M README.md\n?? notes.txt\n" {
		t.Fatalf("%s: git status shows more than the user's own changes:\n%s", where, st)
	}
	locks, _ := filepath.Glob(filepath.Join(repo, ".git", "refs", "heads", "*.lock"))
	more, _ := filepath.Glob(filepath.Join(repo, ".git", "refs", "heads", "*", "*.lock"))
	if locks = append(locks, more...); len(locks) > 0 {
		t.Fatalf("%s: ref locks left: %v", where, locks)
	}
	fsckAfterCrash(t, repo)
}

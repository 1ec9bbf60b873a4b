package phases

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases/layout"
)

// fakeDeps are a scripted agent, a recorder of events and a fixed clock.
func fakeDeps(a agents.Agent, events *[]Event) Deps {
	return Deps{
		NewAgent: func(string) (agents.Agent, error) { return a, nil },
		Reporter: ReporterFunc(func(e Event) { *events = append(*events, e) }),
		Clock:    FixedClock(testNow),
	}
}

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// A commit that fails, or loses its compare-and-swap, stops the run with
// an error and reports nothing done; nothing of the failed phase reaches
// the branch, the lock is released, and a resume finishes with the same
// report as an uninterrupted session.
func TestCommitFailures(t *testing.T) {
	cfg := Config{Topic: "Why?", Breadth: 2, Depth: 0, Model: "fake", ReviewModel: "fake"}
	clean := testRepo(t)
	var ev []Event
	if _, err := Research(context.Background(), withDir(cfg, clean), fakeDeps(&scripted{name: "fake"}, &ev)); err != nil {
		t.Fatal(err)
	}
	want := gitIn(t, clean, "show", "research/why:reports/why/report.md")
	tests := []struct {
		name  string
		store *faultyStore
		check func(t *testing.T, err error)
	}{
		{"snapshot fails", &faultyStore{failSnapshot: 3, snapErr: errors.New("write object: no space left on device")},
			func(t *testing.T, err error) {
				if !strings.Contains(err.Error(), "commit research phase: write object: no space left") {
					t.Errorf("err = %v", err)
				}
			}},
		{"compare-and-swap lost", &faultyStore{failSnapshot: 4, snapErr: errors.New("snapshot research/why: ref changed concurrently after 5 attempts")},
			func(t *testing.T, err error) {
				if !strings.Contains(err.Error(), "commit review phase: snapshot research/why: ref changed concurrently") {
					t.Errorf("err = %v", err)
				}
			}},
		{"branch moved under the run", &faultyStore{moveBefore: 3},
			func(t *testing.T, err error) {
				var bm *BranchMovedError
				if !errors.As(err, &bm) || bm.Got != moved || bm.Branch != "research/why" || bm.Want == "" {
					t.Fatalf("err = %#v, want a BranchMovedError", err)
				}
				if !strings.Contains(bm.Hint(), "git log research/why") || !strings.Contains(bm.Error(), "01234567") {
					t.Errorf("message %q hint %q", bm.Error(), bm.Hint())
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := testRepo(t)
			var events []Event
			_, err := Research(context.Background(), withDir(cfg, dir), tc.store.deps(fakeDeps(&scripted{name: "fake"}, &events)))
			if err == nil {
				t.Fatal("the run succeeded")
			}
			tc.check(t, err)
			var bad *BadInputError
			if errors.As(err, &bad) || errors.Is(err, ErrCancelled) {
				t.Errorf("a failed commit is a failure, not %T", err)
			}
			done := 0
			for _, e := range events {
				if e.Kind == EventPhaseDone {
					done++
				}
			}
			if got := gitIn(t, dir, "rev-list", "--count", "main..research/why"); got != fmt.Sprint(done+1) {
				t.Errorf("%s commits on the branch, but %d phases reported done after start", got, done)
			}
			if fileExists(filepath.Join(dir, ".research", "why", layout.LockFile)) {
				t.Error("lock left behind")
			}
			resumed := withDir(resumeCfg("why"), dir)
			if _, err := Research(context.Background(), resumed, fakeDeps(&scripted{name: "fake"}, &events)); err != nil {
				t.Fatalf("resume: %v", err)
			}
			if got := gitIn(t, dir, "show", "research/why:reports/why/report.md"); got != want {
				t.Errorf("report after resume differs:\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// A merge conflict is its own error: the session is complete on its
// branch, the target is untouched, and a resume with --merge-into
// another branch finishes the job.
func TestMergeConflict(t *testing.T) {
	dir := testRepo(t)
	before := gitIn(t, dir, "rev-parse", "main")
	f := &faultyStore{mergeErr: fmt.Errorf("merge reports/why/report.md: %w", gitstore.ErrConflict)}
	var events []Event
	sum, err := Research(context.Background(), withDir(Config{Topic: "Why?", Breadth: 1, Depth: 0, Model: "fake", ReviewModel: "fake"}, dir),
		f.deps(fakeDeps(&scripted{name: "fake"}, &events)))
	var mc *MergeConflictError
	if !errors.As(err, &mc) {
		t.Fatalf("err = %v, want a MergeConflictError", err)
	}
	if mc.Target != "main" || mc.Path != "reports/why/report.md" || mc.Branch != "research/why" || !sum.Finished || sum.Target != "" {
		t.Errorf("conflict %+v, summary %+v", mc, sum)
	}
	for _, want := range []string{"git merge research/why", "--merge-into", "--no-merge", "rgit research --name why --resume"} {
		if !strings.Contains(mc.Hint(), want) {
			t.Errorf("hint %q lacks %q", mc.Hint(), want)
		}
	}
	if !strings.Contains(mc.Error(), "main changed reports/why/report.md") {
		t.Errorf("message %q", mc.Error())
	}
	if got := gitIn(t, dir, "rev-parse", "main"); got != before {
		t.Error("main moved despite the conflict")
	}
	gitIn(t, dir, "branch", "other", before)
	sum, err = Research(context.Background(), withDir(func() Config { c := resumeCfg("why"); c.MergeInto = "other"; return c }(), dir), fakeDeps(&scripted{name: "fake"}, &events))
	if err != nil || sum.Target != "other" || sum.MergeCommit == "" {
		t.Fatalf("resume with --merge-into: %v, %+v", err, sum)
	}
	gitIn(t, dir, "cat-file", "-e", "other:reports/why/report.md")
}

func withDir(c Config, dir string) Config {
	c.Dir = dir
	return c
}

// resumeCfg is what cmd passes for rgit research --name name --resume.
func resumeCfg(name string) Config {
	return Config{Name: name, Resume: true, Breadth: 3, Depth: 3, Model: "auto", ReviewModel: "auto"}
}

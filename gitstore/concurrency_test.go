package gitstore

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestConcurrentSnapshots(t *testing.T) {
	const writers, each = 8, 25
	repo := newRepo(t)
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Open(repo) // its own Store and go-git Repository
			if err != nil {
				errs <- err
				return
			}
			defer s.Close()
			ws := filepath.Join(t.TempDir(), "ws")
			for i := range each {
				writeFile(t, filepath.Join(ws, fmt.Sprintf("w%d.md", w)), fmt.Sprintf("writer %d step %d\n", w, i))
				_, err := s.Snapshot(context.Background(), SnapshotOptions{
					Branch: "research/race", Mounts: []Mount{{Dir: ws, Tree: fmt.Sprintf("w%d", w)}},
					Message: fmt.Sprintf("w%d step %d", w, i),
				})
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n := strings.TrimSpace(git(t, repo, "rev-list", "--count", "research/race")); n != fmt.Sprint(writers*each) {
		t.Fatalf("branch has %s commits, want %d", n, writers*each)
	}
	if n := strings.TrimSpace(git(t, repo, "rev-list", "--count", "--first-parent", "research/race")); n != fmt.Sprint(writers*each) {
		t.Fatalf("first-parent chain has %s commits, want %d", n, writers*each)
	}
	// Every writer's last step is in the final tree: no update was lost.
	for w := range writers {
		got := git(t, repo, "show", fmt.Sprintf("research/race:w%d/w%d.md", w, w))
		if want := fmt.Sprintf("writer %d step %d\n", w, each-1); got != want {
			t.Errorf("w%d: final content %q, want %q", w, got, want)
		}
	}
	fsck(t, repo)
}

func TestSnapshotRacesUserCommit(t *testing.T) {
	const rounds = 30
	repo := newRepo(t)
	s := open(t, repo)
	ws := filepath.Join(t.TempDir(), "ws")
	var wg sync.WaitGroup
	wg.Add(1)
	var userErr error
	go func() {
		defer wg.Done()
		for i := range rounds {
			writeFile(t, filepath.Join(repo, "user.txt"), fmt.Sprintf("user %d\n", i))
			if out, err := gitErr(repo, "add", "user.txt"); err != nil {
				userErr = fmt.Errorf("git add %d: %v: %s", i, err, out)
				return
			}
			if out, err := gitErr(repo, "commit", "-q", "-m", fmt.Sprintf("user %d", i)); err != nil {
				userErr = fmt.Errorf("git commit %d: %v: %s", i, err, out)
				return
			}
		}
	}()
	for i := range rounds {
		writeFile(t, filepath.Join(ws, "state.json"), fmt.Sprintf("{\"step\": %d}\n", i))
		if _, err := s.Snapshot(context.Background(), SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: ws, Tree: ".research/x"}}}); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	if userErr != nil {
		t.Fatal(userErr)
	}
	if n := strings.TrimSpace(git(t, repo, "rev-list", "--count", "main")); n != fmt.Sprint(rounds+1) {
		t.Errorf("main has %s commits, want %d", n, rounds+1)
	}
	if n := strings.TrimSpace(git(t, repo, "rev-list", "--count", "research/x")); n != fmt.Sprint(rounds) {
		t.Errorf("research/x has %s commits, want %d", n, rounds)
	}
	if st := git(t, repo, "status", "--porcelain"); st != "" {
		t.Errorf("user's worktree not clean after their own commits:\n%s", st)
	}
	fsck(t, repo)
}

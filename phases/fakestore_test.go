package phases

import (
	"context"
	"strings"
	"sync"

	"github.com/rgit-dev/rgit/gitstore"
)

// faultyStore is a Store that fails where a test says, and is the real
// repository everywhere else: the n-th Snapshot fails, the session branch
// seems to move before the n-th Snapshot, or Merge fails.
type faultyStore struct {
	Store
	mu           sync.Mutex
	snapshots    int
	failSnapshot int   // 1-based Snapshot that fails; 0 = none
	snapErr      error // what it fails with
	moveBefore   int   // 1-based Snapshot before which the session branch reads as moved; 0 = never
	mergeErr     error // what Merge fails with; nil = the real Merge
}

// moved is the commit a foreign writer put on the session branch.
const moved = "0123456789abcdef0123456789abcdef01234567"

func (f *faultyStore) Head(branch string) (string, error) {
	f.mu.Lock()
	move := f.moveBefore > 0 && f.snapshots+1 >= f.moveBefore && strings.HasPrefix(branch, "research/")
	f.mu.Unlock()
	if move {
		return moved, nil
	}
	return f.Store.Head(branch)
}

func (f *faultyStore) Snapshot(ctx context.Context, o gitstore.SnapshotOptions) (string, error) {
	f.mu.Lock()
	f.snapshots++
	n := f.snapshots
	f.mu.Unlock()
	if n == f.failSnapshot {
		return "", f.snapErr
	}
	return f.Store.Snapshot(ctx, o)
}

func (f *faultyStore) Merge(ctx context.Context, o gitstore.MergeOptions) (string, error) {
	if f.mergeErr != nil {
		return "", f.mergeErr
	}
	return f.Store.Merge(ctx, o)
}

// deps wires f in front of the real repository.
func (f *faultyStore) deps(d Deps) Deps {
	d.OpenStore = func(dir string) (Store, error) {
		s, err := openGit(dir)
		if err != nil {
			return nil, err
		}
		f.Store = s
		return f, nil
	}
	return d
}

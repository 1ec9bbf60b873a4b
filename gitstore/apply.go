package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// applyCheckout writes the changed files into the worktree at root, then
// records them in its index with `git update-index --index-info` (never
// go-git's index writer, which drops extensions and ignores index.lock).
// Every other path of the index and worktree is left as it was. Files go
// to disk first: a crash in between leaves them untracked, the state that
// checkClean accepts and that the next Merge or SyncCheckedOut completes.
func (s *Store) applyCheckout(ctx context.Context, root string, changes []fileChange) error {
	s.forgetListings()
	var info strings.Builder
	for _, c := range changes {
		p := filepath.Join(root, filepath.FromSlash(c.path))
		if c.new.hash.IsZero() {
			if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("remove %s: %w", p, err)
			}
			fmt.Fprintf(&info, "0 %s\t%s\x00", plumbing.ZeroHash, c.path)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("create %s: %w", filepath.Dir(p), err)
		}
		if err := s.restoreFile(p, c.new, time.Now()); err != nil {
			return err
		}
		fmt.Fprintf(&info, "%o %s\t%s\x00", uint32(c.new.mode), c.new.hash, c.path)
	}
	hook(pointMergeWorktree)
	if gitPath() == "" || len(changes) == 0 {
		return nil
	}
	// The user's own git may hold index.lock for a moment; wait for it as
	// git itself would have us do, rather than leave the index behind HEAD.
	// git is not cancelled halfway: killed, it would leave index.lock.
	ctx = context.WithoutCancel(ctx)
	var err error
	for range 40 {
		_, err = runGit(ctx, root, []byte(info.String()), "update-index", "-z", "--index-info")
		if err == nil || !strings.Contains(err.Error(), "index.lock") {
			break
		}
		hook(pointIndexWait)
		time.Sleep(50 * time.Millisecond)
	}
	if err == nil {
		hook(pointMergeIndex)
	}
	return err
}

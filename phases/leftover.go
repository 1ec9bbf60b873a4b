package phases

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/rgit-dev/rgit/gitstore"
)

// After the merge: what a crash or another worktree may have left on disk.

// repairTarget brings the worktree that has the target branch checked out
// up to the merge, for the report's path only: a run killed in the middle
// of a merge by an older rgit may have moved the branch but not its index
// and files, and the user's next commit would then delete the report.
// Files holding the user's own changes are left alone.
func (r *run) repairTarget(ctx context.Context, target, path string) {
	res, err := r.store.SyncCheckedOut(ctx, target, []string{path})
	if err != nil {
		r.warn(fmt.Sprintf("check %s's worktree after the merge: %v", target, err))
		return
	}
	for _, s := range res {
		if len(s.Repaired) > 0 {
			r.notice(fmt.Sprintf("repaired %s in %s (a merge was interrupted)", strings.Join(s.Repaired, ", "), s.Root))
		}
	}
}

// discardCopy removes this worktree's copy of the session's reports when
// the report was merged into a branch not checked out here (a linked
// worktree with --merge-into main, or another branch): the merge happened
// elsewhere, so nothing is left behind here. Only files identical to the
// branch's go, and never while HEAD here has the report itself.
func (r *run) discardCopy(target string) {
	cur, err := r.store.CurrentBranch()
	if err != nil || cur == target {
		return
	}
	if cur != "" {
		if _, err := r.store.ReadFile(cur, r.lay.ReportTree()); !errors.Is(err, gitstore.ErrNotFound) {
			return // tracked here (or unreadable): the user's file
		}
	}
	kept, err := r.store.Discard(r.lay.Branch(), []gitstore.Mount{{Dir: r.lay.Reports(), Tree: r.lay.ReportsTree()}})
	if err != nil {
		r.warn(fmt.Sprintf("remove the copy of %s here: %v", r.lay.ReportsTree(), err))
	}
	if len(kept) > 0 {
		r.warn(fmt.Sprintf("kept %s: it differs from %s", strings.Join(kept, ", "), r.lay.Branch()))
	}
}

package gitstore

import (
	"context"

	"github.com/go-git/go-git/v5/plumbing"
)

// SyncResult is what SyncCheckedOut did in one worktree that has the
// branch checked out.
type SyncResult struct {
	Root     string   // the worktree's root
	Repaired []string // slash paths written into its index and working tree
	Kept     []string // slash paths holding the user's own changes, left alone
}

// SyncCheckedOut brings the index and working tree of the worktree that has
// branch checked out (any worktree; git lets a branch be checked out in one)
// up to the branch head, for the files under paths and no others. It
// repairs what a merge interrupted by a crash leaves: a file whose index
// entry and disk content are each either the head's version or the version
// of the head's first parent (the target before the merge; absent counts).
// Anything else is the user's own change: left alone and listed in Kept.
// A branch checked out nowhere gives no results. It reads only, and takes
// the store lock only when there is something to repair.
func (s *Store) SyncCheckedOut(ctx context.Context, branch string, paths []string) ([]SyncResult, error) {
	ref, err := branchRef(branch)
	if err != nil {
		return nil, err
	}
	for _, p := range paths {
		if err := checkTreePath(p); err != nil {
			return nil, err
		}
	}
	plan, todo, err := s.planSync(ctx, ref, paths)
	if err != nil || !todo {
		return results(plan), err
	}
	err = s.WithLock(func() error {
		if plan, _, err = s.planSync(ctx, ref, paths); err != nil {
			return err
		}
		for _, p := range plan {
			if err := s.applyCheckout(ctx, p.root, p.fix); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return results(plan), nil
}

// syncPlan is what SyncCheckedOut will do in one worktree.
type syncPlan struct {
	root string
	fix  []fileChange
	kept []string
}

// planSync compares each worktree that has ref checked out with the head.
func (s *Store) planSync(ctx context.Context, ref plumbing.ReferenceName, paths []string) ([]syncPlan, bool, error) {
	head, err := s.readRef(ref)
	if err != nil || head.IsZero() {
		return nil, false, err
	}
	roots, err := s.checkouts(ref)
	if err != nil || len(roots) == 0 {
		return nil, false, err
	}
	c, err := s.readCommit(head)
	if err != nil {
		return nil, false, err
	}
	var parentTree plumbing.Hash
	if len(c.ParentHashes) > 0 {
		if parentTree, err = s.commitTree(c.ParentHashes[0]); err != nil {
			return nil, false, err
		}
	}
	var changes []fileChange
	for _, p := range paths {
		cur, err := s.filesAt(c.TreeHash, p)
		if err != nil {
			return nil, false, err
		}
		old, err := s.filesAt(parentTree, p)
		if err != nil {
			return nil, false, err
		}
		for _, f := range sortedKeys(unionKeys(old, cur)) {
			changes = append(changes, fileChange{path: f, old: old[f], new: cur[f]})
		}
	}
	var plan []syncPlan
	todo := false
	for _, root := range roots {
		states, err := s.states(ctx, root, changes)
		if err != nil {
			return nil, false, err
		}
		p := syncPlan{root: root}
		for i, c := range changes {
			switch {
			case done(c, states[i]):
			case replaceable(c, states[i]) == nil:
				p.fix = append(p.fix, c)
			default:
				p.kept = append(p.kept, c.path)
			}
		}
		todo = todo || len(p.fix) > 0
		plan = append(plan, p)
	}
	return plan, todo, nil
}

// filesAt lists the files at or below slash path p in a tree.
func (s *Store) filesAt(root plumbing.Hash, p string) (map[string]wanted, error) {
	e, ok, err := s.entryAt(root, p)
	if err != nil {
		return nil, err
	}
	return s.filesOf(e, ok, p)
}

// results turns plans into what SyncCheckedOut reports.
func results(plan []syncPlan) []SyncResult {
	var out []SyncResult
	for _, p := range plan {
		r := SyncResult{Root: p.root, Kept: p.kept}
		for _, c := range p.fix {
			r.Repaired = append(r.Repaired, c.path)
		}
		out = append(out, r)
	}
	return out
}

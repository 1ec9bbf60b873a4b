// Package gitstore keeps directories as git history without touching the
// user's index, HEAD or working tree.
//
// Snapshot commits directories ("mounts") onto a branch with plumbing only:
// blobs, sorted trees rebuilt from the parent commit's tree (only the trees
// on changed paths are rewritten; a stat cache spares unchanged files the
// read and hash), a commit with git trailers, and a compare-and-swap ref
// move. Restore writes a branch's subtrees back into directories, Log and
// ReadFile read history, and Merge brings paths of one branch into another
// (the user's checked-out branch included) with a two-parent commit.
//
// Concurrency: every read -> commit -> ref move holds an exclusive OS lock
// on <common git dir>/rgit/store.lock, so separate Stores and processes can
// write to one repository at once without losing commits. Refs are replaced
// the way git does it (an exclusive <ref>.lock renamed over the ref), so
// readers never see a half-written ref and git's own locks are honoured; the
// user's branches are moved with `git update-ref <ref> <new> <old>` when git
// is installed. go-git's ref CAS, index writer and Worktree are never used.
//
// Crashes: every write is ordered so that a process killed at any moment
// leaves a state the next run accepts or repairs. Objects go before the ref
// that names them (a crash leaves them unreachable, as a killed git does); a
// ref move is noted in the store lock before <ref>.lock is created, so the
// next writer removes a lock a dead run left (and says so through Notify);
// Merge changes the checked-out worktree and index before the target, as git
// does, and SyncCheckedOut repairs a worktree left behind its branch. Named
// kill points inside these steps let tests crash a process exactly there
// (KillAtEnv).
//
// Bad input: Open only reads (it refuses formats it cannot write with
// ErrUnsupportedRepo), and CheckBranchName, CheckMergeTarget and IsShallow
// let a caller refuse bad input before its first write; the writes check
// again before writing anything. A caller that records who may write
// (a run token) fences the others with WithLock and a Guard.
//
// Objects are written loose, as git does, and Repack packs them. A Store is
// for one goroutine; open one Store per goroutine.
//
// The package knows git and nothing about what is stored in it.
package gitstore

import (
	"errors"
	"fmt"
)

// Sentinel errors; match them with errors.Is. The wrapping error's text
// is one line that names the thing to fix.
var (
	// ErrNotRepository: no git repository was found at or above the directory.
	ErrNotRepository = errors.New("not a git repository")
	// ErrNotFound: the branch, revision or path does not exist.
	ErrNotFound = errors.New("not found")
	// ErrBranchNotFound: the branch does not exist and is not the unborn
	// branch of a worktree's HEAD. It is also ErrNotFound.
	ErrBranchNotFound = fmt.Errorf("branch %w", ErrNotFound)
	// ErrConflict: a merge would overwrite changes made on the target; nothing was changed.
	ErrConflict = errors.New("merge conflict")
	// ErrNothingToCommit: the tree is unchanged and an empty commit was not asked for.
	ErrNothingToCommit = errors.New("nothing to commit")
	// ErrUnsupportedRepo: the repository uses a format this package cannot
	// write safely (SHA-256 object names, reftable refs, an unknown
	// extension); Open refuses it before anything is read or written.
	ErrUnsupportedRepo = errors.New("unsupported repository format")
	// ErrShallow: the repository is a shallow clone, whose history ends
	// where a merge base may lie; Merge refuses it before writing anything.
	ErrShallow = errors.New("shallow clone")
	// ErrRefNameConflict: the branch cannot be created because a ref is in
	// the way (refs/heads/a is a branch, so refs/heads/a/b cannot be one, or
	// the other way round).
	ErrRefNameConflict = errors.New("ref name conflict")
	// ErrFenced: the caller's Guard refused the ref move; nothing moved.
	ErrFenced = errors.New("ref move refused by guard")
)

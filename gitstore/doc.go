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
// Objects are written loose, as git does, and Repack packs them. A Store is
// for one goroutine; open one Store per goroutine.
//
// The package knows git and nothing about what is stored in it.
package gitstore

import "errors"

// Sentinel errors; match them with errors.Is.
var (
	// ErrNotRepository: no git repository was found at or above the directory.
	ErrNotRepository = errors.New("not a git repository")
	// ErrNotFound: the branch, revision or path does not exist.
	ErrNotFound = errors.New("not found")
	// ErrConflict: a merge would overwrite changes made on the target; nothing was changed.
	ErrConflict = errors.New("merge conflict")
	// ErrNothingToCommit: the tree is unchanged and an empty commit was not asked for.
	ErrNothingToCommit = errors.New("nothing to commit")
)

// Package gitstore keeps directories as git history without touching the
// user's index, HEAD or working tree.
//
// It writes with plumbing only: blobs, sorted trees rebuilt incrementally from
// the parent commit's tree, commits with trailers, and a compare-and-swap ref
// move. Every read -> commit -> ref move holds an exclusive OS lock in the
// common git dir, so separate Stores (and separate processes) can write to one
// repository at the same time without losing commits. Ref files are replaced
// the way git does it (an exclusive <ref>.lock renamed over the ref), so
// readers never see a half-written ref and git's own locks are honoured.
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

package phases

import (
	"context"

	"github.com/rgit-dev/rgit/gitstore"
)

// Store is what phases needs of a git repository, and nothing more. The
// real one is *gitstore.Store; tests wrap it to make a commit fail, a ref
// move or a merge conflict.
type Store interface {
	// Root is the repository's worktree root.
	Root() string
	// Head is a branch's commit; gitstore.ErrNotFound when it does not exist.
	Head(branch string) (string, error)
	// CurrentBranch is the branch HEAD points at; "" when detached.
	CurrentBranch() (string, error)
	// TrackRemote creates a missing local branch from the one remote that has it.
	TrackRemote(branch string) (remote string, err error)
	// FastForwardRemote moves a local branch that is behind the one remote's up to it.
	FastForwardRemote(branch string) (remote string, err error)
	// Branches lists the branches whose names start with prefix.
	Branches(prefix string) ([]string, error)
	// Log lists a branch's commits, newest first; limit 0 means all.
	Log(branch string, limit int) ([]gitstore.Commit, error)
	// ReadFile reads a file at a revision.
	ReadFile(rev, path string) ([]byte, error)
	// ListFiles lists the files under dir at a revision.
	ListFiles(rev, dir string) ([]string, error)
	// Restore makes the mount directories equal to the branch's subtrees.
	Restore(branch string, mounts []gitstore.Mount, exclude []string) error
	// AddExclude adds a pattern to .git/info/exclude.
	AddExclude(pattern string) error
	// Snapshot commits the mounts onto a branch (compare-and-swap).
	Snapshot(ctx context.Context, o gitstore.SnapshotOptions) (string, error)
	// Merge brings paths of one branch into another; gitstore.ErrConflict
	// when the target changed them.
	Merge(ctx context.Context, o gitstore.MergeOptions) (string, error)
	// Repack packs loose objects.
	Repack(ctx context.Context) error
	// LooseObjects counts the loose objects, to skip a repack not worth its time.
	LooseObjects() (int, error)
	// Checks that read only, so bad input is refused before any write
	// (see validate.go).
	CheckBranchName(branch string) error
	CheckMergeTarget(branch string) error
	IsShallow() (bool, error)
	// WithLock runs fn under the store lock every ref move holds; the
	// session lock changes hands inside it (lock.go).
	WithLock(fn func() error) error
	// SyncCheckedOut repairs a checked-out branch a crashed merge left
	// behind; Discard removes a copy of a branch's files from this worktree.
	SyncCheckedOut(ctx context.Context, branch string, paths []string) ([]gitstore.SyncResult, error)
	Discard(rev string, mounts []gitstore.Mount) (kept []string, err error)
	// Notify sets who is told about the store's own repairs.
	Notify(fn func(msg string))
	// Close releases the repository.
	Close() error
}

var _ Store = (*gitstore.Store)(nil)

// OpenStore opens the repository containing dir; gitstore.ErrNotRepository
// when there is none.
type OpenStore func(dir string) (Store, error)

// openGit is the default OpenStore.
func openGit(dir string) (Store, error) {
	s, err := gitstore.Open(dir)
	if err != nil {
		return nil, err
	}
	return s, nil
}

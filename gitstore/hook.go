package gitstore

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Kill points: the named moments of a write at which a test can make the
// process die, to check that every state a crash can leave is one the next
// run repairs. In order of a snapshot, then of a merge:
//
//	snapshot:objects  blobs and subtrees written; the lock is not taken yet
//	snapshot:commit   commit object written under the lock; no ref moved
//	ref:lock          <ref>.lock created (and noted in the store lock), empty
//	ref:write         the new value written into <ref>.lock, not renamed yet
//	ref:rename        <ref>.lock renamed over the ref; the note not cleared yet
//	merge:commit      merge commit written; nothing visible to the user yet
//	merge:worktree    merged files written into the checked-out worktree
//	merge:index       ... and recorded in its index; the target not moved yet
//	merge:ref         the target branch moved: the merge is done
//
// and one point that is no crash site, for tests that must act exactly
// when a merge waits for the user's git:
//
//	merge:index-wait  git holds index.lock; the merge waits and retries
//
// The ref:* points are passed for every ref this package moves itself
// (session branches; the user's branch only when git is not installed).
const (
	pointSnapshotObjects = "snapshot:objects"
	pointSnapshotCommit  = "snapshot:commit"
	pointRefLock         = "ref:lock"
	pointRefWrite        = "ref:write"
	pointRefRename       = "ref:rename"
	pointMergeCommit     = "merge:commit"
	pointMergeWorktree   = "merge:worktree"
	pointMergeIndex      = "merge:index"
	pointMergeRef        = "merge:ref"
	pointIndexWait       = "merge:index-wait"
)

// KillPoints returns the names of the kill points, in the order a snapshot
// and then a merge reach them, for tests that pick one (see KillAtEnv).
func KillPoints() []string {
	return []string{pointSnapshotObjects, pointSnapshotCommit, pointRefLock, pointRefWrite, pointRefRename,
		pointMergeCommit, pointMergeWorktree, pointMergeIndex, pointMergeRef}
}

// testHook, set by this package's tests only, is called at every kill point.
var testHook func(point string)

// KillAtEnv names the test-only environment variable that kills the
// process (SIGKILL on Unix, TerminateProcess on Windows) at a kill point:
// RGIT_TEST_KILL_AT=<point>:<n> dies the n-th time <point> is reached
// (n defaults to 1; the point "*" counts every point). It is read once,
// only when set, so that end-to-end tests of the rgit binary can crash it
// at an exact moment instead of racing a timer. Never set it otherwise.
const KillAtEnv = "RGIT_TEST_KILL_AT"

// killSpec is a parsed KillAtEnv.
type killSpec struct {
	point string
	n     int64
	seen  *atomic.Int64
}

var killAt = sync.OnceValue(func() killSpec { return parseKillAt(os.Getenv(KillAtEnv)) })

// parseKillAt reads "<point>[:<n>]"; "" kills nowhere.
func parseKillAt(v string) killSpec {
	if v == "" {
		return killSpec{}
	}
	k := killSpec{point: v, n: 1, seen: new(atomic.Int64)}
	if i := strings.LastIndexByte(v, ':'); i > 0 {
		if n, err := strconv.ParseInt(v[i+1:], 10, 64); err == nil && n > 0 {
			k.point, k.n = v[:i], n
		}
	}
	return k
}

// hook marks a kill point.
func hook(point string) {
	if testHook != nil {
		testHook(point)
	}
	k := killAt()
	if k.point == "" || (k.point != "*" && k.point != point) {
		return
	}
	if k.seen.Add(1) == k.n {
		killSelf()
	}
}

// killSelf ends the process the way the operating system kills it: no
// deferred calls, no flushing, no cleanup.
func killSelf() {
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		_ = p.Kill()
	}
	select {} // the signal is on its way
}

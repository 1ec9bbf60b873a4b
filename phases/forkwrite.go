package phases

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases/layout"
)

// write takes the new session's lock, lays its files out in its workspace
// and commits them on research/<Name> on top of the fork point. On
// failure the workspace it wrote is removed again.
func (f *forker) write(ctx context.Context) (res ForkResult, err error) {
	if err := f.store.AddExclude(layout.ExcludePattern); err != nil {
		return ForkResult{}, fmt.Errorf("exclude workspace: %w", err)
	}
	ls, err := openGit(f.lay.Root())
	if err != nil {
		return ForkResult{}, fmt.Errorf("open repository for the lock: %w", err)
	}
	// The fork commits once, right away: a takeover has nothing to stop.
	lk, err := acquireLock(ls, f.lay, false, f.deps.Clock, func(string) {}, func(error) {})
	if err != nil {
		ls.Close()
		return ForkResult{}, err
	}
	defer func() {
		lk.release()
		if err != nil {
			os.RemoveAll(f.lay.Workspace())
		}
	}()
	token := lk.info.Token
	st := f.state
	st.LockToken = &token
	st.Runs = append(st.Runs, token)
	st.CurrentPhase = PhaseFork
	st.PhaseHistory = append(st.PhaseHistory, string(PhaseFork))
	f.files[layout.StateFile] = st.Marshal()
	for _, rel := range slices.Sorted(maps.Keys(f.files)) {
		if err := writeFile(filepath.Join(f.lay.Workspace(), filepath.FromSlash(rel)), f.files[rel]); err != nil {
			return ForkResult{}, fmt.Errorf("write %s: %w", rel, err)
		}
	}
	at := f.src.commits[f.at]
	owner := layout.New(f.store.Root(), f.src.owner[f.at])
	// A directory that does not exist: its mounts drop the source's
	// subtrees from the fork's tree.
	absent := filepath.Join(f.lay.Workspace(), layout.ScratchDir, "absent")
	branch := f.lay.Branch()
	head, err := f.store.Snapshot(ctx, gitstore.SnapshotOptions{
		Branch: branch, Base: at.Hash,
		Mounts: []gitstore.Mount{{Dir: f.lay.Workspace(), Tree: f.lay.WorkspaceTree()},
			{Dir: absent, Tree: owner.WorkspaceTree()}, {Dir: absent, Tree: owner.ReportsTree()}},
		Exclude: f.lay.Excludes(), Message: f.message(at), AllowEmpty: true, When: commitTime(f.deps.Clock),
		Trailers: []gitstore.Trailer{{Key: string(TrailerPhase), Value: string(PhaseFork)},
			{Key: string(TrailerIteration), Value: strconv.Itoa(st.Iteration)},
			{Key: string(TrailerForkOf), Value: owner.Name()}, {Key: string(TrailerRun), Value: token}},
		Guard: func() error {
			if _, err := f.store.Head(branch); !errors.Is(err, gitstore.ErrNotFound) {
				return fmt.Errorf("%s was created meanwhile", branch)
			}
			return nil
		},
	})
	if err != nil {
		return ForkResult{}, fmt.Errorf("commit fork: %w", err)
	}
	res = ForkResult{Name: f.cfg.Name, Branch: branch, Source: f.cfg.Source, SourceAt: at.Hash, Head: head,
		Stage: st.Stage, Pending: f.pending()}
	if f.plan != nil {
		res.Counts = f.plan.Counts()
	}
	return res, nil
}

// message is the fork commit's message: where it starts and what changed.
func (f *forker) message(at gitstore.Commit) string {
	var b strings.Builder
	fmt.Fprintf(&b, "fork: %s at %s as %s\n\n", f.cfg.Source, short(at.Hash), f.cfg.Name)
	fmt.Fprintf(&b, "Forked from %s at %s (%s).\n", f.src.branch, short(at.Hash), oneLine(at.Summary))
	if f.redoRest {
		b.WriteString("The source had finished its research there: the fork synthesizes its own report.\n")
	}
	if p := f.pending(); len(p) > 0 {
		fmt.Fprintf(&b, "Topics to research: %s.\n", strings.Join(p, ", "))
	}
	if len(f.changes) > 0 {
		b.WriteString("\n" + strings.Join(f.changes, "\n") + "\n")
	}
	return Redact(b.String())
}

package phases

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"sort"
	"strings"

	"github.com/rgit-dev/rgit/agents/registry/catalog"
)

// confined says whether a backend cannot write outside the workspace by
// construction: only the external CLIs run code rgit does not control, so
// the outside-writes gate is skipped for built-in and HTTP backends.
func confined(backend string) bool {
	b, ok := catalog.Lookup(backend)
	return ok && b.Kind != catalog.CLI
}

// worktreeChanges lists the paths git reports as changed or untracked,
// outside this session's own directories. ok is false when git is not
// available, in which case the gate cannot run.
func (cr *callRunner) worktreeChanges(ctx context.Context) (map[string]string, bool) {
	cmd := exec.CommandContext(ctx, "git", "status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored=no")
	cmd.Dir = cr.lay.Root()
	out, err := cmd.Output()
	if err != nil {
		return nil, false
	}
	own := cr.lay.Owned()
	changes := map[string]string{}
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) < 4 {
			continue
		}
		status, path := string(rec[:2]), string(rec[3:])
		mine := false
		for _, p := range own {
			if strings.HasPrefix(path, p) {
				mine = true
			}
		}
		if !mine {
			changes[path] = status
		}
	}
	return changes, true
}

// outsideWrites compares two worktreeChanges snapshots and names the paths
// an agent touched outside the workspace.
func outsideWrites(before, after map[string]string) error {
	var paths []string
	for p, st := range after {
		if before[p] != st {
			paths = append(paths, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	sort.Strings(paths)
	if len(paths) > 5 {
		paths = append(paths[:5], fmt.Sprintf("and %d more", len(paths)-5))
	}
	return fmt.Errorf("agent wrote outside the workspace: %s", strings.Join(paths, ", "))
}

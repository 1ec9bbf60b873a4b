package gitstore

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestSnapshotExtraParents records an octopus merge of two member branches
// onto a session branch and checks it with the git CLI: the parents in
// order, the merged tree, and git fsck --strict.
func TestSnapshotExtraParents(t *testing.T) {
	dir := newRepo(t)
	s := open(t, dir)
	ctx := context.Background()
	work := filepath.Join(dir, ".research", "x")
	snap := func(branch, base, sub string, extra ...string) string {
		t.Helper()
		mounts := []Mount{{Dir: work, Tree: ".research/x"}}
		if sub != "" {
			mounts = []Mount{{Dir: filepath.Join(work, "members", sub), Tree: ".research/x/members/" + sub}}
		}
		h, err := s.Snapshot(ctx, SnapshotOptions{Branch: branch, Base: base, Mounts: mounts, Message: "m " + branch,
			AllowEmpty: true, ExtraParents: extra})
		if err != nil {
			t.Fatalf("snapshot %s: %v", branch, err)
		}
		return h
	}
	writeFile(t, filepath.Join(work, "state.json"), "{}\n")
	start := snap("research/x", "", "")
	writeFile(t, filepath.Join(work, "members", "a", "report.md"), "a\n")
	a := snap("research/x.a", start, "a")
	writeFile(t, filepath.Join(work, "members", "b", "report.md"), "b\n")
	b := snap("research/x.b", start, "b")
	merge := snap("research/x", "", "", "research/x.a", b, a) // a repeated parent is recorded once

	var parents []string
	for _, line := range strings.Split(git(t, dir, "cat-file", "-p", merge), "\n") {
		if p, ok := strings.CutPrefix(line, "parent "); ok {
			parents = append(parents, p)
		}
	}
	if want := []string{start, a, b}; strings.Join(parents, " ") != strings.Join(want, " ") {
		t.Errorf("parents = %v, want %v", parents, want)
	}
	if got := git(t, dir, "show", merge+":.research/x/members/b/report.md"); got != "b\n" {
		t.Errorf("merged tree lacks member b's report: %q", got)
	}
	if got := strings.TrimSpace(git(t, dir, "ls-tree", "--name-only", merge, ".research/x/")); got != ".research/x/members\n.research/x/state.json" {
		t.Errorf("merged tree = %q", got)
	}
	fsck(t, dir)

	head, _ := s.Head("research/x")
	if _, err := s.Snapshot(ctx, SnapshotOptions{Branch: "research/x", Mounts: []Mount{{Dir: work, Tree: ".research/x"}},
		Message: "bad", ExtraParents: []string{"research/x.nope"}}); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing parent: err = %v, want ErrNotFound", err)
	}
	if h, _ := s.Head("research/x"); h != head {
		t.Errorf("a refused merge moved the branch")
	}
}

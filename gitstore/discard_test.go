package gitstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Issue 12, point 8: rgit ran in a linked worktree and merged into main,
// checked out in the main worktree. The session's copy of the report in the
// linked worktree is removed; only what the user added there stays.
func TestDiscardAfterMergeElsewhere(t *testing.T) {
	cases := []struct {
		name   string
		extra  map[string]string // files the user put into reports/x
		kept   []string
		status string // git status --porcelain in the linked worktree
	}{
		{"only the session's files", nil, nil, ""},
		{"the user's own file stays", map[string]string{"notes.md": "mine\n"}, []string{"reports/x/notes.md"}, "?? reports/\n"},
		{"the user's edit stays", map[string]string{"report.md": "# Report, edited\n"}, []string{"reports/x/report.md"}, "?? reports/\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			repo := newRepo(t)
			linked := filepath.Join(t.TempDir(), "linked")
			git(t, repo, "worktree", "add", "-q", "-b", "side", linked)
			s := open(t, linked)
			reports := filepath.Join(linked, "reports", "x")
			writeFile(t, filepath.Join(reports, "report.md"), "# Report\n")
			mount := Mount{Dir: reports, Tree: "reports/x"}
			if _, err := s.Snapshot(context.Background(), SnapshotOptions{Branch: "research/x", Base: "main", Mounts: []Mount{mount}}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Merge(context.Background(), MergeOptions{Source: "research/x", Target: "main", Paths: []string{"reports/x/report.md"}}); err != nil {
				t.Fatal(err)
			}
			for name, content := range tc.extra {
				writeFile(t, filepath.Join(reports, name), content)
			}
			kept, err := s.Discard("research/x", []Mount{mount})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(kept, tc.kept) {
				t.Errorf("kept %q, want %q", kept, tc.kept)
			}
			if st := git(t, linked, "status", "--porcelain"); st != tc.status {
				t.Errorf("linked worktree status:\n%s\nwant:\n%s", st, tc.status)
			}
			if tc.status == "" {
				if _, err := os.Stat(filepath.Join(linked, "reports")); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("reports/ left in the linked worktree: %v", err)
				}
			}
			if got := git(t, repo, "status", "--porcelain"); got != "" {
				t.Errorf("main worktree status:\n%s", got)
			}
			if b, _ := os.ReadFile(filepath.Join(repo, "reports", "x", "report.md")); !strings.HasPrefix(string(b), "# Report\n") {
				t.Errorf("report in the main worktree: %q", b)
			}
		})
	}
}

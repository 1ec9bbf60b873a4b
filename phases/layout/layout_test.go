package layout

import (
	"path/filepath"
	"reflect"
	"testing"
)

func TestPaths(t *testing.T) {
	root := filepath.FromSlash("/repo")
	l := New(root, "tides")
	disk := func(p string) string { return filepath.FromSlash(p) }
	tests := []struct{ got, want string }{
		{l.Branch(), "research/tides"},
		{l.Name(), "tides"},
		{l.Root(), root},
		{l.Workspace(), disk("/repo/.research/tides")},
		{l.Plan(), disk("/repo/.research/tides/research_plan.md")},
		{l.State(), disk("/repo/.research/tides/state.json")},
		{l.File(ReviewJSON), disk("/repo/.research/tides/review.json")},
		{l.Progress("moon"), disk("/repo/.research/tides/progress/moon.md")},
		{l.Lock(), disk("/repo/.research/tides/research.lock.json")},
		{l.ProgressLog(), disk("/repo/.research/tides/progress.log")},
		{l.Outcome(), disk("/repo/.research/tides/outcome.json")},
		{l.LockTemp(), disk("/repo/.research/tides/research.lock.json.tmp")},
		{l.Scratch("research-moon-1"), disk("/repo/.research/tides/.scratch/research-moon-1")},
		{l.Archive(), disk("/repo/.research/tides/archive")},
		{l.ArchiveEntry("T1", 7, "research", "progress/moon.md"), disk("/repo/.research/tides/archive/T1/0007-research/moon.progress.md")},
		{l.ArchiveEntry("T1", 12, "plan", "research_plan.md"), disk("/repo/.research/tides/archive/T1/0012-plan/research_plan.md")},
		{l.Reports(), disk("/repo/reports/tides")},
		{l.Report(), disk("/repo/reports/tides/report.md")},
		{Templates(root), disk("/repo/.research/templates")},
		{Cache(root, "local"), disk("/repo/.research/.cache/local")},
		{l.WorkspaceTree(), ".research/tides"},
		{l.StateTree(), ".research/tides/state.json"},
		{l.PlanTree(), ".research/tides/research_plan.md"},
		{l.TreeFile(ProgressFile), ".research/tides/progress.md"},
		{l.ReportsTree(), "reports/tides"},
		{l.ReportTree(), "reports/tides/report.md"},
		{ExcludePattern, "/.research/"},
	}
	for i, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%d: got %q, want %q", i, tc.got, tc.want)
		}
	}
}

func TestTreeSets(t *testing.T) {
	l := New("/r", "x")
	if got := l.Mounts(); len(got) != 2 || got[0].Tree != ".research/x" || got[1].Tree != "reports/x" || got[1].Dir != filepath.FromSlash("/r/reports/x") {
		t.Errorf("Mounts = %+v", got)
	}
	want := []string{".research/x/research.lock.json", ".research/x/research.lock.json.tmp", ".research/x/archive", ".research/x/.scratch",
		".research/x/progress.log", ".research/x/outcome.json", ".research/x/outcome.json.tmp"}
	if got := l.Excludes(); !reflect.DeepEqual(got, want) {
		t.Errorf("Excludes = %q", got)
	}
	if got := l.Owned(); !reflect.DeepEqual(got, []string{".research/", "reports/x/"}) {
		t.Errorf("Owned = %q", got)
	}
	if rel, ok := l.WorkspaceRel(".research/x/progress/a.md"); !ok || rel != "progress/a.md" {
		t.Errorf("WorkspaceRel = %q %v", rel, ok)
	}
	if _, ok := l.WorkspaceRel("reports/x/report.md"); ok {
		t.Error("a report is not in the workspace")
	}
	if name, ok := NameOf("research/x"); !ok || name != "x" {
		t.Errorf("NameOf = %q %v", name, ok)
	}
	if _, ok := NameOf("main"); ok {
		t.Error("main is no session branch")
	}
	in := Intermediate()
	in[0] = "changed"
	if Intermediate()[0] == "changed" {
		t.Error("Intermediate returns the package's own slice")
	}
}

func TestArchived(t *testing.T) {
	for rel, want := range map[string]bool{
		"progress/a.md": true, "progress.md": true, "review.accepted.md": true, "review.rejected.md": true,
		"review.json": true, "completed.md": true, "recovery.notes.md": true, "research_plan.md": true,
		"state.json": true, "sources/x.txt": false, "progressive.md": false, "archive/x": false,
	} {
		if got := Archived(rel); got != want {
			t.Errorf("Archived(%q) = %v, want %v", rel, got, want)
		}
	}
}

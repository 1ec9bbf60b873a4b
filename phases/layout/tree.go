package layout

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rgit-dev/rgit/gitstore"
)

// WorkspaceTree is the workspace's path in the branch tree, .research/<name>.
func (l Layout) WorkspaceTree() string { return researchDir + "/" + l.name }

// TreeFile is a workspace file's path in the branch tree.
func (l Layout) TreeFile(rel string) string { return l.WorkspaceTree() + "/" + rel }

// StateTree is state.json's path in the branch tree.
func (l Layout) StateTree() string { return l.TreeFile(StateFile) }

// PlanTree is research_plan.md's path in the branch tree.
func (l Layout) PlanTree() string { return l.TreeFile(PlanFile) }

// ReportsTree is the report directory's path in the branch tree.
func (l Layout) ReportsTree() string { return reportsDir + "/" + l.name }

// ReportTree is the report's path in the branch tree and in the target
// branch it is merged into.
func (l Layout) ReportTree() string { return l.ReportsTree() + "/" + ReportFile }

// WorkspaceRel is a branch-tree path relative to the workspace; ok is
// false for paths outside it.
func (l Layout) WorkspaceRel(treePath string) (rel string, ok bool) {
	return strings.CutPrefix(treePath, l.WorkspaceTree()+"/")
}

// Mounts pairs the session's directories on disk with their subtrees:
// every commit snapshots exactly these.
func (l Layout) Mounts() []gitstore.Mount {
	return []gitstore.Mount{
		{Dir: l.Workspace(), Tree: l.WorkspaceTree()},
		{Dir: l.Reports(), Tree: l.ReportsTree()},
	}
}

// Excludes are the tree paths never committed and never removed by a
// restore: the lock (and its temporary file), the materialised archive,
// the scratch directories, the progress log and the run's outcome.
func (l Layout) Excludes() []string {
	return []string{l.TreeFile(LockFile), l.TreeFile(LockFile + ".tmp"), l.TreeFile(ArchiveDir), l.TreeFile(ScratchDir),
		l.TreeFile(ProgressLogFile), l.TreeFile(OutcomeFile), l.TreeFile(OutcomeFile + ".tmp")}
}

// Sealed are the tree paths whose files rgit writes once and never
// rewrites: the source records, one file per URL. A commit takes their
// tree from the directory's stat while no record is added or removed,
// rather than stating hundreds of files every phase.
func (l Layout) Sealed() []string { return []string{l.TreeFile(SourcesDir)} }

// Owned are the path prefixes (slash form, relative to the repository
// root) an agent may write under: every workspace and this session's
// reports. Anything else is outside the workspace.
func (l Layout) Owned() []string {
	return []string{researchDir + "/", l.ReportsTree() + "/"}
}

// intermediate are the workspace entries the completion commit drops from
// the branch tree; history keeps them.
var intermediate = []string{ProgressDir, ProgressFile, ReviewAcceptedMD, ReviewRejectedMD, ReviewJSON, CompletedFile, RecoveryNotesFile,
	MembersDir}

// Intermediate lists the workspace entries (files and directories) the
// completion commit drops.
func Intermediate() []string { return slices.Clone(intermediate) }

// Archived says whether a workspace file (relative, slash form) belongs in
// the materialised archive: the intermediate files, the plan and the state.
func Archived(rel string) bool {
	for _, f := range intermediate {
		if rel == f || strings.HasPrefix(rel, f+"/") {
			return true
		}
	}
	return rel == PlanFile || rel == StateFile
}

// archiveStep names one commit's folder in the archive.
func archiveStep(seq int, phase string) string { return fmt.Sprintf("%04d-%s", seq, phase) }

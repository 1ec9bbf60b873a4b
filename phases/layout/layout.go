// Package layout names every path of a research session: its branch, its
// files on disk and the same files in git trees. No other code joins
// session paths; ask a Layout.
//
//	refs/heads/research/<name>             the session branch
//	.research/<name>/                      the workspace (on disk and in the branch tree)
//	  state.json research_plan.md progress.md progress/<slug>.md
//	  review.accepted.md review.rejected.md review.json completed.md
//	  recovery.notes.md sources/ templates/
//	  research.lock.json (+ .tmp)          disk only: the session lock
//	  progress.log                         disk only: every progress event, one line each
//	  outcome.json (+ .tmp)                disk only: the last run's outcome (running, or how it ended)
//	  archive/<run>/<NNNN>-<phase>/        disk only: --reorganize-archive
//	  .scratch/<call>/                     disk only: one agent call's scratch directory
//	reports/<name>/report.md               the report (merged into the target branch)
//	.research/templates/                   prompt templates, shared by every session
//	.research/.cache/<backend>/            backend caches, shared by every session
//
// Tree paths use slashes, as git stores them; disk paths use the
// platform's separator under the repository root.
package layout

import (
	"path"
	"path/filepath"
	"strings"
)

// BranchPrefix starts every session branch name.
const BranchPrefix = "research/"

// Workspace, reports, templates and caches live under these top-level
// folders of the repository.
const (
	researchDir = ".research"
	reportsDir  = "reports"
)

// Files of the workspace, relative to it.
const (
	StateFile         = "state.json"
	PlanFile          = "research_plan.md"
	ProgressFile      = "progress.md"
	ProgressDir       = "progress"
	ReviewAcceptedMD  = "review.accepted.md"
	ReviewRejectedMD  = "review.rejected.md"
	ReviewJSON        = "review.json"
	CompletedFile     = "completed.md"
	RecoveryNotesFile = "recovery.notes.md"
	SourcesDir        = "sources"
	LockFile          = "research.lock.json"
	ProgressLogFile   = "progress.log"
	OutcomeFile       = "outcome.json"
	ArchiveDir        = "archive"
	ScratchDir        = ".scratch"
	ReportFile        = "report.md"
	TemplatesDir      = "templates" // the prompt templates the session runs with, committed with it
)

// ExcludePattern is the line rgit adds to .git/info/exclude so that no
// workspace ever shows up in git status.
const ExcludePattern = "/" + researchDir + "/"

// Layout is one session's paths inside one repository.
type Layout struct {
	root string // absolute repository root; "" when only tree paths are needed
	name string
}

// New returns the layout of session name in the repository at root.
func New(root, name string) Layout { return Layout{root: root, name: name} }

// Name is the session name.
func (l Layout) Name() string { return l.name }

// Root is the repository root the disk paths are under.
func (l Layout) Root() string { return l.root }

// Branch is the session branch's short name, research/<name>.
func (l Layout) Branch() string { return Branch(l.name) }

// Branch is the short branch name of session name.
func Branch(name string) string { return BranchPrefix + name }

// NameOf is the session name of a session branch; ok is false for other
// branches.
func NameOf(branch string) (name string, ok bool) {
	return strings.CutPrefix(branch, BranchPrefix)
}

// Templates is the directory of the user's prompt templates.
func Templates(root string) string { return filepath.Join(root, researchDir, "templates") }

// Cache is a backend's cache directory under base.
func Cache(base, backend string) string {
	return filepath.Join(base, researchDir, ".cache", backend)
}

// disk joins workspace-relative slash parts under the workspace on disk.
func (l Layout) disk(rel ...string) string {
	return filepath.Join(append([]string{l.root, researchDir, l.name}, rel...)...)
}

// Workspace is the session's workspace on disk.
func (l Layout) Workspace() string { return l.disk() }

// File is a workspace file on disk; rel is one of the file constants.
func (l Layout) File(rel string) string { return l.disk(rel) }

// Plan is research_plan.md on disk.
func (l Layout) Plan() string { return l.disk(PlanFile) }

// State is state.json on disk.
func (l Layout) State() string { return l.disk(StateFile) }

// Progress is a topic's progress file on disk.
func (l Layout) Progress(slug string) string { return l.disk(ProgressDir, slug+".md") }

// Lock is the session lock file on disk.
func (l Layout) Lock() string { return l.disk(LockFile) }

// LockTemp is the file a lock refresh writes before renaming it over Lock.
func (l Layout) LockTemp() string { return l.disk(LockFile + ".tmp") }

// ProgressLog is the session's progress log on disk (for tail -f).
func (l Layout) ProgressLog() string { return l.disk(ProgressLogFile) }

// Outcome is the file recording the last run's outcome.
func (l Layout) Outcome() string { return l.disk(OutcomeFile) }

// OutcomeTemp is the file an outcome is written to before its rename.
func (l Layout) OutcomeTemp() string { return l.disk(OutcomeFile + ".tmp") }

// Scratch is the scratch directory of one agent call.
func (l Layout) Scratch(call string) string { return l.disk(ScratchDir, call) }

// ArchiveEntry is where --reorganize-archive writes a file (workspace-
// relative rel) of the seq-th commit, a phase of run token. Per-topic files
// are flattened with the topic first, as the seed asks.
func (l Layout) ArchiveEntry(token string, seq int, phase, rel string) string {
	name := rel
	if strings.HasPrefix(rel, ProgressDir+"/") {
		name = strings.TrimSuffix(path.Base(rel), ".md") + ".progress.md"
	}
	return l.disk(ArchiveDir, token, archiveStep(seq, phase), filepath.FromSlash(name))
}

// Archive is the materialised archive's directory on disk.
func (l Layout) Archive() string { return l.disk(ArchiveDir) }

// Reports is the session's report directory on disk.
func (l Layout) Reports() string { return filepath.Join(l.root, reportsDir, l.name) }

// Report is the report on disk.
func (l Layout) Report() string { return filepath.Join(l.Reports(), ReportFile) }

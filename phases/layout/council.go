package layout

import (
	"path/filepath"

	"github.com/rgit-dev/rgit/gitstore"
)

// A council session's members each work in their own directory of the
// workspace and commit it to their own branch:
//
//	refs/heads/research/<name>.<member>      a member's branch
//	.research/<name>/members/<member>/        its directory (on disk and in its branch's tree)
//	  member.json report.md refined.md ranking.json recovery.notes.md
//
// The session branch holds every surviving member's directory from the
// octopus merge on.

// MembersDir is the workspace directory of the council's members.
const MembersDir = "members"

// Files of a member's directory.
const (
	MemberStateFile   = "member.json"
	MemberReportFile  = "report.md"
	MemberRefinedFile = "refined.md"
	MemberRankingFile = "ranking.json"
)

// MemberBranch is the short branch name of a council member, research/<name>.<member>.
func (l Layout) MemberBranch(member string) string { return l.Branch() + "." + member }

// MemberDir is a member's directory on disk.
func (l Layout) MemberDir(member string) string { return l.disk(MembersDir, member) }

// MemberFile is a file of a member's directory on disk.
func (l Layout) MemberFile(member, rel string) string { return filepath.Join(l.MemberDir(member), rel) }

// MemberTree is a member's directory in a branch tree.
func (l Layout) MemberTree(member string) string { return l.TreeFile(MembersDir + "/" + member) }

// MemberMounts is what a member's commits snapshot: its directory only.
func (l Layout) MemberMounts(member string) []gitstore.Mount {
	return []gitstore.Mount{{Dir: l.MemberDir(member), Tree: l.MemberTree(member)}}
}

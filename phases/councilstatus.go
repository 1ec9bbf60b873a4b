package phases

import (
	"encoding/json"

	"github.com/rgit-dev/rgit/phases/layout"
)

// MemberStatus is one council member as `rgit status` shows it, read from
// its branch head (so a member run in another clone shows after a fetch
// only once its branch is here).
type MemberStatus struct {
	Member    string `json:"member"`
	Spec      string `json:"spec"`
	Branch    string `json:"branch"`
	Head      string `json:"head,omitempty"` // "" before its first commit
	Phase     Phase  `json:"phase,omitempty"`
	Iteration int    `json:"iteration"`
	Complete  bool   `json:"research_complete"`
	Failed    string `json:"failed,omitempty"` // why the council left it out
	Usage     Totals `json:"usage"`
}

// councilStatus reads every member's branch head.
func councilStatus(s Store, lay layout.Layout, st *State) []MemberStatus {
	c := st.Council
	if c == nil {
		return nil
	}
	out := make([]MemberStatus, 0, len(c.Members))
	for _, m := range c.Members {
		ms := MemberStatus{Member: m.Name, Spec: m.Spec, Branch: lay.MemberBranch(m.Name), Failed: c.Failed[m.Name]}
		if h, err := headOf(s, ms.Branch); err == nil && h != "" {
			ms.Head = h
			var rec MemberRecord
			if data, err := s.ReadFile(h, lay.MemberTree(m.Name)+"/"+layout.MemberStateFile); err == nil && json.Unmarshal(data, &rec) == nil {
				ms.Phase, ms.Iteration, ms.Complete, ms.Usage = rec.Phase, rec.Iteration, rec.Complete, rec.Usage
			}
		}
		out = append(out, ms)
	}
	return out
}

// memberBranchOf says whether branch name is a council member's branch of
// one of the sessions: research/<session>.<member>.
func memberBranchOf(name string, sessions map[string]bool) bool {
	for i := len(name) - 1; i > 0; i-- {
		if name[i] == '.' && sessions[name[:i]] {
			return true
		}
	}
	return false
}

package phases

import (
	"fmt"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/phases/layout"
)

// A council's members record the pages their agents read as a single
// session does, under their own directory's sources/, committed on their
// branch with the iteration or refinement that read them. The octopus
// merge gathers every merged member's records into the session's
// sources/, so the synthesis's citation gate, its tally and `rgit verify`
// check the council's report against what any member read.

// keepReads writes the records of what a member's call read, even when
// the call then failed: its next commit carries them.
func (mr *memberRun) keepReads(seen *sourceSet) error {
	if _, err := writeSourcesIn(mr.lay.MemberFile(mr.m.Name, layout.SourcesDir), seen); err != nil {
		return fmt.Errorf("record %s's sources: %w", mr.m.Name, err)
	}
	return nil
}

// gatherSources adds the merged members' records to the session's: a page
// several members read keeps the latest read that has text, as a page read
// twice in one session does.
func (r *run) gatherSources(alive []*memberRun) error {
	set := r.knownSources()
	for _, mr := range alive {
		theirs := readSourcesIn(mr.lay.MemberFile(mr.m.Name, layout.SourcesDir))
		for _, src := range theirs.byURL {
			if own, ok := set.lookup(src.URL); !ok || own.Text != src.Text && src.Time.After(own.Time) {
				set.add([]agents.Source{src}, src.Time)
			}
		}
	}
	return r.recordSources(set, ", from the members' reads")
}

package phases

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/phases/layout"
)

// A council's members record the pages they read on their own branches;
// the merge gathers them into the session's sources/, and the synthesis's
// citations are checked and tallied against them as a single session's
// are.
func TestCouncilSources(t *testing.T) {
	dir := testRepo(t)
	deps, _ := councilDeps(t, "")
	sum, err := Research(context.Background(), councilCfg(dir, "mock:alpha", "mock:beta"), deps)
	if err != nil || !sum.Finished {
		t.Fatalf("%v %+v", err, sum)
	}
	lay := layout.New(dir, "tides")
	union := map[string]bool{}
	for _, m := range []string{"mock-alpha", "mock-beta"} {
		files := strings.Fields(gitIn(t, dir, "ls-tree", "--name-only", lay.MemberBranch(m)+":"+lay.MemberTree(m)+"/"+layout.SourcesDir))
		if len(files) == 0 {
			t.Errorf("%s's branch records no sources", m)
		}
		for _, f := range files {
			union[f] = true
		}
	}
	merged := strings.Fields(gitIn(t, dir, "ls-tree", "--name-only", "research/tides:"+lay.TreeFile(layout.SourcesDir)))
	if len(merged) != len(union) {
		t.Errorf("the session holds %d records, the members %d distinct ones", len(merged), len(union))
	}
	st := readState(t, dir, "research/tides")
	if c := st.Citations; c == nil || c.Total == 0 || c.Verified != c.Total {
		t.Errorf("citation tally %+v, want every URL citation verified", c)
	}
	if report, _ := os.ReadFile(lay.Report()); strings.Contains(string(report), "unverified") {
		t.Errorf("the report marks citations unverified:\n%s", report)
	}
}

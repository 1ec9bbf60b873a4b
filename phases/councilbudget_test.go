package phases

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/phases/layout"
)

// A council with a token budget stops its members' research at the
// budget, skips the refinement and ranking rounds, synthesizes with the
// banner and stays within the budget; resumed with a larger budget, the
// members research on from their branches, the rounds run, and the
// council synthesizes again without the banner, every token counted once.
func TestCouncilBudget(t *testing.T) {
	dir := testRepo(t)
	deps, _ := councilDeps(t, "")
	cfg := councilCfg(dir, "mock:alpha", "mock:beta")
	cfg.MaxTokens = 20000
	sum, err := Research(context.Background(), cfg, deps)
	if err != nil || !sum.Finished || !sum.LimitReached {
		t.Fatalf("budget-stopped council: %v %+v", err, sum)
	}
	lay := layout.New(dir, "tides")
	st := readState(t, dir, "research/tides")
	if st.Limit != LimitTokens || st.BudgetStop == nil {
		t.Fatalf("state limit %q, budget stop %+v", st.Limit, st.BudgetStop)
	}
	if used := SpendOf(st.Usage).Tokens(); used > cfg.MaxTokens {
		t.Errorf("the council used %d tokens of a budget of %d", used, cfg.MaxTokens)
	}
	// The members research side by side, so how far each got depends on
	// when the other's calls landed: one may even finish its research
	// while the budget stops the other. What holds in any order: a member
	// was stopped, no round ran, and the report says how far each got.
	report, err := os.ReadFile(lay.Report())
	if err != nil || !strings.Contains(string(report), "TOKEN BUDGET REACHED") || !strings.Contains(string(report), "- Members' research: "+st.Council.iterations()) {
		t.Fatalf("report (%v):\n%.600s", err, report)
	}
	stopped := 0
	for _, rec := range st.Council.Results {
		if rec.Refined || rec.Ranked {
			t.Errorf("member %s: refined %v, ranked %v; want no rounds", rec.Member, rec.Refined, rec.Ranked)
		}
		if rec.Complete {
			continue
		}
		stopped++
		if row := fmt.Sprintf("| %s | mock:%s | mock:%[2]s | %d | budget |", rec.Member, strings.TrimPrefix(rec.Member, "mock-"), rec.Iteration); !strings.Contains(string(report), row) {
			t.Errorf("the report has no row %q:\n%s", row, report)
		}
	}
	if stopped == 0 {
		t.Errorf("every member finished its research: the budget stopped none")
	}

	cfg.MaxTokens, cfg.Resume, cfg.Topic = 90000, true, ""
	sum, err = Research(context.Background(), cfg, deps)
	if err != nil || !sum.Finished || sum.LimitReached {
		t.Fatalf("resumed council: %v %+v", err, sum)
	}
	st = readState(t, dir, "research/tides")
	for _, rec := range st.Council.Results {
		if !rec.Complete || !rec.Refined || !rec.Ranked || rec.Iteration < 2 {
			t.Errorf("member %s after the resume: %+v", rec.Member, rec)
		}
	}
	if report, _ := os.ReadFile(lay.Report()); strings.Contains(string(report), "BUDGET REACHED") {
		t.Errorf("the report kept the banner:\n%.400s", report)
	}
	if n := strings.Count(gitIn(t, dir, "log", "--format=%s", "research/tides"), "council-merge:"); n != 2 {
		t.Errorf("%d council-merge commits, want one for each run", n)
	}
	v, err := Inspector{Dir: dir}.Verify("tides")
	if err != nil || !v.Verified {
		t.Errorf("verify: %v %+v", err, v)
	}
}

// readState is state.json at a branch's head.
func readState(t *testing.T, dir, branch string) *State {
	t.Helper()
	name := strings.TrimPrefix(branch, layout.BranchPrefix)
	st, err := ParseState("state.json", []byte(gitIn(t, dir, "show", branch+":"+layout.New(dir, name).StateTree())))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

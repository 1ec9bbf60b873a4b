package phases

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
	"github.com/rgit-dev/rgit/agents/mock"
)

func TestSuggestedProfile(t *testing.T) {
	tests := []struct{ in, want string }{
		{"## Metadata\n- Topic: x\n- Suggested Profile: quick\n", "quick"},
		{"- suggested profile: `Thorough`\n", "thorough"},
		{"## Metadata\n- Topic: x\n", ""},
		{"Suggested Profile: quick (not a list item)\n", ""},
		{"- Suggested Profile: <quick, standard or thorough>\n", ""},
	}
	for _, tt := range tests {
		if got := suggestedProfile([]byte(tt.in)); got != tt.want {
			t.Errorf("suggestedProfile(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestProfileProposal: without a chosen profile the planner's suggestion
// is put to the user; yes takes it for every setting no flag or git config
// gave, no keeps the profile, no terminal keeps it and says so, and a
// chosen profile is never questioned.
func TestProfileProposal(t *testing.T) {
	tests := []struct {
		name    string
		profile string               // --profile
		confirm func() (bool, error) // nil: no terminal
		asked   bool
		want    string // the session's profile
		notice  string
	}{
		{"confirmed", "", func() (bool, error) { return true, nil }, true, "quick", "using the quick profile: breadth 3 -> 2, max iterations 14 -> 9"},
		{"declined", "", func() (bool, error) { return false, nil }, true, "standard", "keeping the standard profile"},
		{"no terminal", "", nil, false, "standard", "the planner suggests the quick profile (breadth 3 -> 2, max iterations 14 -> 9, fix attempts 3 -> 1, topic restarts 1 -> 0, time none -> 10m0s, max cost none -> $1, max tokens none -> 500000); keeping standard without a terminal to confirm: start with --profile quick to use it"},
		{"chosen profile", "standard", func() (bool, error) { return true, nil }, false, "standard", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := testRepo(t)
			cfg := Config{Dir: dir, Topic: "Why?", Depth: 1, Model: "mock", ReviewModel: "mock"}
			if err := ApplyProfile(&cfg, tt.profile, func(f string) bool { return f == "depth" }, func(string) string { return "" }); err != nil {
				t.Fatal(err)
			}
			var notices []string
			asked := false
			deps := Deps{
				NewAgent: func(string) (agents.Agent, error) { return mock.New(mock.Options{Profile: "quick"}), nil },
				Reporter: ReporterFunc(func(e Event) {
					if e.Kind == EventNotice {
						notices = append(notices, e.Message)
					}
				}),
			}
			if tt.confirm != nil {
				deps.Confirm = func(q string) (bool, error) {
					asked = true
					if !strings.HasPrefix(q, "The planner suggests the quick profile for this question (breadth 3 -> 2,") {
						t.Errorf("question %q", q)
					}
					return tt.confirm()
				}
			}
			sum, err := Research(context.Background(), cfg, deps)
			if err != nil {
				t.Fatal(err)
			}
			if asked != tt.asked {
				t.Errorf("asked = %v, want %v", asked, tt.asked)
			}
			st := stateAt(t, dir, "research/why")
			if st.Profile != tt.want {
				t.Errorf("profile %q, want %q", st.Profile, tt.want)
			}
			if tt.want == "quick" {
				if st.Breadth != 2 || st.Depth != 1 || st.MaxIterations != 9 || st.Budget == nil || st.Budget.MaxCostUSD != 1 || st.TimeBudgetS != 600 {
					t.Errorf("settings after confirming: %+v", st.Settings)
				}
				if sum.Total > 2+2*2 {
					t.Errorf("%d topics: the plan was not made for breadth 2", sum.Total)
				}
				if body := gitOut(t, dir, "log", "--format=%B", "-1", "research/why~"+depthOfPlan(t, dir)); !strings.Contains(body, "Profile: quick, suggested by the planner and confirmed") {
					t.Errorf("plan commit body:\n%s", body)
				}
			} else if st.Breadth != 3 {
				t.Errorf("breadth %d after keeping %s", st.Breadth, tt.want)
			}
			joined := strings.Join(notices, "\n")
			if tt.notice != "" && !strings.Contains(joined, tt.notice) {
				t.Errorf("notices:\n%s\nwant %q", joined, tt.notice)
			}
			if tt.notice == "" && strings.Contains(joined, "planner suggests") {
				t.Errorf("a chosen profile was questioned:\n%s", joined)
			}
		})
	}
}

// stateAt reads state.json at a branch.
func stateAt(t *testing.T, dir, branch string) *State {
	t.Helper()
	st, err := ParseState("state.json", []byte(gitOut(t, dir, "show", branch+":.research/why/state.json")))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// depthOfPlan is how many commits below the branch head the plan commit is.
func depthOfPlan(t *testing.T, dir string) string {
	t.Helper()
	phases := strings.Fields(gitOut(t, dir, "log", "--format=%(trailers:key=Rgit-Phase,valueonly)", "research/why"))
	for i, p := range phases {
		if p == string(PhasePlan) {
			return fmt.Sprint(i)
		}
	}
	t.Fatal("no plan commit")
	return ""
}

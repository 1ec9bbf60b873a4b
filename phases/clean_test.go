package phases

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/rgit-dev/rgit/agents"
)

// evilAgent answers like scripted, but its plan's topics and its report's
// headings carry escape sequences and control bytes.
type evilAgent struct{ scripted }

const evil = "\x1b]0;pwned\x07\x1b[31m"

func (e *evilAgent) Run(ctx context.Context, task agents.Task) (agents.Result, error) {
	res, err := e.scripted.Run(ctx, task)
	if err != nil || task.Phase != agents.PhasePlan && task.Phase != agents.PhaseSynthesize {
		return res, err
	}
	data, rerr := os.ReadFile(task.Output)
	if rerr != nil {
		return res, rerr
	}
	data = []byte(strings.ReplaceAll(strings.ReplaceAll(string(data), "### Root", "### "+evil+"Root\a"), "# Report", "# Report "+evil+"\r\x9b2J"))
	return res, os.WriteFile(task.Output, data, 0o644)
}

// Files rgit writes and commits never carry an agent's control
// characters: the plan, the progress files, the report with its headings,
// commit messages and trailers (issue 12 point 6). The user's topic is
// cleaned too.
func TestWritesNoControlCharacters(t *testing.T) {
	dir := testRepo(t)
	a := &evilAgent{scripted{name: "evil"}}
	sum, _, err := runWith(t, dir, Config{Topic: "Why\x1b[2J tides?", Breadth: 2, Depth: 0, Model: "evil", ReviewModel: "evil"}, map[string]agents.Agent{"evil": a})
	if err != nil || !sum.Finished {
		t.Fatalf("%v %+v", err, sum)
	}
	check := func(what, s string) {
		t.Helper()
		if i := strings.IndexFunc(s, func(r rune) bool { return r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f) }); i >= 0 {
			t.Errorf("%s holds a control character at %d: %q", what, i, s[max(0, i-20):min(len(s), i+20)])
		}
	}
	name := sum.Name
	check("the plan", gitIn(t, dir, "show", "research/"+name+"~2:.research/"+name+"/research_plan.md"))
	check("the report", gitIn(t, dir, "show", "main:reports/"+name+"/report.md"))
	check("the history", gitIn(t, dir, "log", "--format=%B", "research/"+name))
	if report := gitIn(t, dir, "show", "main:reports/"+name+"/report.md"); !strings.Contains(report, "# Report") {
		t.Errorf("the report lost its heading:\n%s", report)
	}
	if plan := gitIn(t, dir, "show", "research/"+name+"~2:.research/"+name+"/research_plan.md"); !strings.Contains(plan, "### Root 1 (Depth: 0)") {
		t.Errorf("the plan lost its topics:\n%s", plan)
	}
}

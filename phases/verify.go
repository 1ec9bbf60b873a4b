package phases

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"

	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/phases/plan"
	"github.com/rgit-dev/rgit/phases/report"
)

// Verification is `rgit verify`'s audit of a session, read from its
// branch alone: a scorecard of checks and the problems found.
type Verification struct {
	Name     string   `json:"name"`
	Branch   string   `json:"branch"`
	Head     string   `json:"head"`
	Verified bool     `json:"verified"`
	Checks   []Check  `json:"checks"`
	Problems []string `json:"problems"`
}

// Check is one line of the scorecard: how many of what passed.
type Check struct {
	Name   string `json:"name"`
	Passed int    `json:"passed"`
	Total  int    `json:"total"`
	What   string `json:"what"`
}

// OK says whether every item of the check passed.
func (c Check) OK() bool { return c.Passed == c.Total }

// Verify re-audits a session from its branch: every citation of the
// report against the sources its research recorded (or the corpus files
// for local citations), every quotation found there, every topic of the
// plan accounted for, and the banner and completion consistent with the
// state and the commit trailers. A session fetched from another clone is
// found through its remote branch.
func (in Inspector) Verify(name string) (Verification, error) {
	s, head, err := in.openSession(name)
	if err != nil {
		return Verification{}, err
	}
	defer s.Close()
	lay := layout.New(s.Root(), name)
	v := Verification{Name: name, Branch: lay.Branch(), Head: head, Problems: []string{}}
	a, err := loadAudit(s, lay, head)
	if err != nil {
		return v, err
	}
	v.Checks = append(v.Checks, a.citations(&v.Problems, s.Root())...)
	v.Checks = append(v.Checks, a.topics(&v.Problems), a.consistency(&v.Problems), a.budget(&v.Problems))
	v.Verified = len(v.Problems) == 0
	for _, c := range v.Checks {
		v.Verified = v.Verified && c.OK()
	}
	return v, nil
}

// audit is what a verification reads of a session.
type audit struct {
	state   *State
	plan    *plan.Plan
	report  []byte
	records map[string][]string // every version of each progress file in history, by path
	sources *sourceSet          // the source records at the head (sources/)
	rows    []PhaseRow
	store   Store // reads corpus files at the recorded commit (verifycorpus.go)
}

func loadAudit(s Store, lay layout.Layout, head string) (*audit, error) {
	data, err := s.ReadFile(head, lay.StateTree())
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", lay.StateTree(), err)
	}
	a := &audit{records: map[string][]string{}, store: s}
	if a.state, err = ParseState(lay.Branch()+":"+lay.StateTree(), data); err != nil {
		return nil, err
	}
	if src, err := s.ReadFile(head, lay.PlanTree()); err == nil {
		if a.plan, err = plan.Parse(layout.PlanFile, src); err != nil {
			return nil, err
		}
	}
	a.report, _ = s.ReadFile(head, lay.ReportTree()) // a missing report fails the checks
	// The merged report links its citations (reportlinks.go); the audit
	// reads them as the research wrote them.
	a.report = report.Unlink(a.report)
	a.sources = treeSources(s, lay, head)
	if a.rows, err = phaseRows(s, lay.Branch(), 0); err != nil {
		return nil, err
	}
	commits, err := s.Log(lay.Branch(), 0)
	if err != nil {
		return nil, fmt.Errorf("read history: %w", err)
	}
	dir := lay.TreeFile(layout.ProgressDir)
	for _, c := range commits {
		files, err := s.ListFiles(c.Hash, dir)
		if err != nil {
			continue // no progress files in this commit
		}
		for _, f := range files {
			b, err := s.ReadFile(c.Hash, f)
			if err == nil && !slices.Contains(a.records[f], string(b)) {
				a.records[f] = append(a.records[f], string(b))
			}
		}
	}
	return a, nil
}

// topics checks every topic of the plan is complete, was given up
// (#RETRY_EXHAUSTED) and then listed in the report, or was left pending
// by a limit whose banner the report carries.
func (a *audit) topics(problems *[]string) Check {
	c := Check{Name: "topics", What: "accounted for (complete, or stated as exhausted or left by a limit)"}
	// A limit's banner tells the reader how many topics were left undone
	// and how to finish them; a topic it left pending is accounted for.
	banner := a.state.LimitReached && bytes.HasPrefix(a.report, []byte(bannerPrefix))
	if a.state.Council != nil {
		return a.members(problems)
	}
	if a.plan == nil {
		*problems = append(*problems, "the plan is missing from the branch")
		return c
	}
	for _, t := range a.plan.Topics {
		c.Total++
		switch {
		case t.Status == plan.Complete:
			c.Passed++
		case a.state.isExhausted(t.Name) && bytes.Contains(a.report, []byte(t.Name)):
			c.Passed++
		case banner && !a.state.isExhausted(t.Name):
			c.Passed++
		default:
			*problems = append(*problems, fmt.Sprintf("topic %q is %s and not listed as exhausted", t.Name, t.Status))
		}
	}
	return c
}

// consistency checks the session finished, the report exists, the
// iteration-limit banner is there exactly when the state says the limit
// was reached, and the trailers count the iterations state.json records.
func (a *audit) consistency(problems *[]string) Check {
	c := Check{Name: "history", Total: 4, What: "consistent (complete, report, banner, iterations)"}
	fail := func(format string, args ...any) { *problems = append(*problems, fmt.Sprintf(format, args...)) }
	if last := lastRgitPhase(a.rows); a.state.IsComplete && last == PhaseComplete {
		c.Passed++
	} else {
		fail("the session is not complete (last phase %q)", last)
	}
	if len(a.report) > 0 {
		c.Passed++
	} else {
		fail("the report is missing from the branch")
	}
	if banner := bytes.HasPrefix(a.report, []byte("---\n⚠️")); banner == a.state.LimitReached {
		c.Passed++
	} else {
		fail("the iteration-limit banner is %s but state.json says limit_reached %v", map[bool]string{true: "present", false: "absent"}[banner], a.state.LimitReached)
	}
	most := 0
	for _, r := range a.rows {
		if n, err := strconv.Atoi(r.Iteration); err == nil && n > most {
			most = n
		}
	}
	if most == a.state.Iteration {
		c.Passed++
	} else {
		fail("the trailers reach iteration %d but state.json records %d", most, a.state.Iteration)
	}
	return c
}

func lastRgitPhase(rows []PhaseRow) Phase {
	for _, r := range rows {
		if r.Phase != PhaseMerge {
			return r.Phase
		}
	}
	return ""
}

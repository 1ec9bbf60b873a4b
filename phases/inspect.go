package phases

import (
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/phases/plan"
)

// Inspector reads the sessions of the repository at Dir without running
// them: `rgit status`, `log`, `list` and `cancel`.
type Inspector struct {
	Dir       string
	Clock     Clock     // nil is SystemClock
	OpenStore OpenStore // nil is gitstore
}

// SessionInfo is what `rgit status` and `rgit list` show of a session.
type SessionInfo struct {
	Name      string             `json:"name"`
	Branch    string             `json:"branch"`
	Topic     string             `json:"topic"`
	Stage     Stage              `json:"stage"`
	Phase     Phase              `json:"phase"`
	Iteration int                `json:"iteration"`
	MaxIter   int                `json:"max_iterations"`
	Counts    plan.Counts        `json:"counts"`
	Complete  bool               `json:"complete"`
	Exhausted []string           `json:"exhausted,omitempty"`
	Lock      *LockInfo          `json:"lock,omitempty"`
	Head      string             `json:"head"`
	Updated   time.Time          `json:"updated"`
	Usage     map[string]*Totals `json:"usage,omitempty"`
	Tree      string             `json:"tree,omitempty"`
	Recent    []PhaseRow         `json:"recent,omitempty"`
	LastRun   *Outcome           `json:"last_run,omitempty"` // see Inspector.LastRun
	Members   []MemberStatus     `json:"members,omitempty"`  // a council's
	Budget    *Budget            `json:"budget,omitempty"`   // budget.go
	Limit     Limit              `json:"limit,omitempty"`    // the limit that stopped research, if one did
	Citations *CitationTally     `json:"citations,omitempty"`
}

// open opens the repository, or says to run rgit inside one.
func (in Inspector) open() (Store, error) {
	o := in.OpenStore
	if o == nil {
		o = openGit
	}
	s, err := o(in.Dir)
	if errors.Is(err, gitstore.ErrNotRepository) {
		return nil, badInput("run rgit inside a git repository that has research sessions", "not a git repository: %s", in.Dir)
	}
	return s, err
}

func (in Inspector) clock() Clock {
	if in.Clock == nil {
		return SystemClock
	}
	return in.Clock
}

// List describes every session in the repository, by name.
func (in Inspector) List() ([]SessionInfo, error) {
	s, err := in.open()
	if err != nil {
		return nil, err
	}
	defer s.Close()
	branches, err := s.Branches(layout.BranchPrefix)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	var out []SessionInfo
	names := map[string]bool{}
	for _, b := range branches {
		name, _ := layout.NameOf(b)
		names[name] = true
	}
	for _, b := range branches {
		name, _ := layout.NameOf(b)
		if ValidateName(name) != nil || memberBranchOf(name, names) {
			continue
		}
		info, err := describe(s, name, false)
		if err != nil {
			info = SessionInfo{Name: name, Branch: b, Stage: StageUnreadable}
		}
		out = append(out, in.withLastRun(s.Root(), info))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Status describes one session in detail.
func (in Inspector) Status(name string) (SessionInfo, error) {
	s, _, err := in.openSession(name)
	if err != nil {
		return SessionInfo{}, err
	}
	defer s.Close()
	info, err := describe(s, name, true)
	return in.withLastRun(s.Root(), info), err
}

func describe(s Store, name string, detail bool) (SessionInfo, error) {
	lay := layout.New(s.Root(), name)
	branch := lay.Branch()
	head, err := s.Head(branch)
	if errors.Is(err, gitstore.ErrNotFound) {
		return SessionInfo{}, noSession(name)
	} else if err != nil {
		return SessionInfo{}, err
	}
	path := lay.StateTree()
	data, err := s.ReadFile(head, path)
	if err != nil {
		return SessionInfo{}, fmt.Errorf("read %s: %w", path, err)
	}
	st, err := ParseState(branch+":"+path, data)
	if err != nil {
		return SessionInfo{}, err
	}
	info := SessionInfo{Name: name, Branch: branch, Topic: st.OriginalTopic, Stage: st.Stage, Phase: st.CurrentPhase,
		Iteration: st.Iteration, MaxIter: st.MaxIterations, Complete: st.IsComplete, Exhausted: st.Exhausted, Head: head, Usage: st.Usage,
		Budget: st.Budget, Limit: st.Limit, Citations: st.Citations}
	if src, err := s.ReadFile(head, lay.PlanTree()); err == nil {
		if p, err := plan.Parse(layout.PlanFile, src); err == nil {
			info.Counts = p.Counts()
			if detail {
				info.Tree = plan.Tree(p)
			}
		}
	}
	if l, ok, _ := ReadLock(lay); ok {
		info.Lock = &l
	}
	limit := 1
	if detail {
		limit = 5
	}
	rows, err := phaseRows(s, branch, limit)
	if err != nil {
		return SessionInfo{}, err
	}
	if len(rows) > 0 {
		info.Updated = rows[0].When
	}
	if detail {
		info.Recent = rows
		info.Members = councilStatus(s, lay, st)
	}
	return info, nil
}

func noSession(name string) error {
	return badInput("run 'rgit list' to see the sessions here", "no session named %q", name)
}

package phases

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases/layout"
	"github.com/rgit-dev/rgit/phases/plan"
	"github.com/rgit-dev/rgit/phases/report"
)

// ReportView is a session as `rgit show`, `export` and `diff` read it:
// the views' input, and where its local citations point on disk.
type ReportView struct {
	Session *report.Session
	// Root is the repository's root; Corpus the session's corpus
	// directories (empty: the repository itself), for FileLinks.
	Root   string
	Corpus []string
}

// ReportSession reads session name at rev ("" = its newest commit; see
// history.resolve for the forms) from git: state.json, the plan and the
// report in that commit's tree, and every phase commit down to the first.
// A session only fetched from another clone is tracked first (as a
// resume does), so it reads the same.
func (in Inspector) ReportSession(name, rev string) (*ReportView, error) {
	s, _, err := in.openSession(name)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	h, err := readHistory(s, name)
	if err != nil {
		return nil, err
	}
	at, err := h.resolve(rev)
	if err != nil {
		return nil, err
	}
	return loadView(s, h, at)
}

// loadView fills a ReportView from commit at of history h.
func loadView(s Store, h *history, at int) (*ReportView, error) {
	c := h.commits[at]
	owner := layout.New(s.Root(), h.owner[at])
	st, err := readStateAt(s, c.Hash, owner)
	if err != nil {
		return nil, err
	}
	rs := &report.Session{Name: h.name, Branch: h.branch, Head: c.Hash, Question: st.OriginalTopic,
		Started: fromUnix(st.StartTime), Updated: c.When, Complete: st.IsComplete, LimitReached: st.LimitReached,
		Iteration: st.Iteration, MaxIterations: st.MaxIterations, Breadth: st.Breadth, Depth: st.Depth, Runs: len(st.Runs),
		Agents:    report.Agents{Research: st.Model, Review: st.ReviewModel, Fallback: st.Fallback},
		Exhausted: st.Exhausted, Usage: map[string]report.Usage{}, ReportPath: layout.New("", h.name).ReportTree()}
	for b, u := range st.Usage {
		rs.Usage[b] = report.Usage{Calls: u.Calls, InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
			CachedTokens: u.CachedTokens, CostUSD: u.CostUSD, Seconds: u.Seconds}
	}
	if src, err := s.ReadFile(c.Hash, owner.PlanTree()); err == nil {
		if p, err := plan.Parse(h.branch+":"+owner.PlanTree(), src); err == nil {
			rs.Plan = p
		}
	}
	if md, err := s.ReadFile(c.Hash, owner.ReportTree()); err == nil {
		rs.Report = report.Unlink(md) // the views link citations themselves
	} else if !errors.Is(err, gitstore.ErrNotFound) {
		return nil, fmt.Errorf("read report: %w", err)
	}
	for i := len(h.commits) - 1; i >= at; i-- {
		if h.owner[i] == "" {
			continue
		}
		pc := h.commits[i]
		if p, ok := report.PhaseFromTrailers(pc.Hash, pc.When, pc.Summary, pc.Trailer); ok {
			rs.Phases = append(rs.Phases, p)
		}
	}
	return &ReportView{Session: rs, Root: s.Root(), Corpus: st.Corpus}, nil
}

// readStateAt reads the state a session's layout puts in commit rev.
func readStateAt(s Store, rev string, lay layout.Layout) (*State, error) {
	data, err := s.ReadFile(rev, lay.StateTree())
	if err != nil {
		return nil, fmt.Errorf("read %s at %s: %w", lay.StateTree(), short(rev), err)
	}
	return ParseState(short(rev)+":"+lay.StateTree(), data)
}

// fromUnix is a state.json time; 0 is unknown.
func fromUnix(sec float64) time.Time {
	if sec <= 0 || math.IsInf(sec, 0) || math.IsNaN(sec) {
		return time.Time{}
	}
	whole, frac := math.Modf(sec)
	return time.Unix(int64(whole), int64(frac*1e9)).UTC()
}

func short(h string) string {
	if len(h) > 8 {
		return h[:8]
	}
	return h
}

package phases

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases/plan"
)

// SessionInfo is what `rgit status` and `rgit list` show of a session.
type SessionInfo struct {
	Name      string             `json:"name"`
	Branch    string             `json:"branch"`
	Topic     string             `json:"topic"`
	Stage     Stage              `json:"stage"`
	Phase     string             `json:"phase"`
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
}

// PhaseRow is one phase commit, read back from its trailers.
type PhaseRow struct {
	Hash      string    `json:"hash"`
	When      time.Time `json:"when"`
	Phase     string    `json:"phase"`
	Iteration string    `json:"iteration,omitempty"`
	Topic     string    `json:"topic,omitempty"`
	Verdict   string    `json:"verdict,omitempty"`
	Agent     string    `json:"agent,omitempty"`
	Model     string    `json:"model,omitempty"`
	Duration  string    `json:"duration,omitempty"`
	Tokens    string    `json:"tokens,omitempty"`
	Cost      string    `json:"cost,omitempty"`
	Summary   string    `json:"summary"`
}

func openExisting(dir string) (*gitstore.Store, error) {
	s, err := gitstore.Open(dir)
	if errors.Is(err, gitstore.ErrNotRepository) {
		return nil, badInput("run rgit inside a git repository that has research sessions", "not a git repository: %s", dir)
	}
	return s, err
}

// List describes every session in the repository at dir.
func List(dir string) ([]SessionInfo, error) {
	s, err := openExisting(dir)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	branches, err := s.Branches("research/")
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	var out []SessionInfo
	for _, b := range branches {
		name := strings.TrimPrefix(b, "research/")
		if ValidateName(name) != nil || strings.Contains(name, "/") {
			continue
		}
		info, err := describe(s, name, false)
		if err != nil {
			info = SessionInfo{Name: name, Branch: b, Stage: "unreadable"}
		}
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Status describes one session in detail.
func Status(dir, name string) (SessionInfo, error) {
	if err := ValidateName(name); err != nil {
		return SessionInfo{}, err
	}
	s, err := openExisting(dir)
	if err != nil {
		return SessionInfo{}, err
	}
	defer s.Close()
	return describe(s, name, true)
}

func describe(s *gitstore.Store, name string, detail bool) (SessionInfo, error) {
	branch := "research/" + name
	head, err := s.Head(branch)
	if errors.Is(err, gitstore.ErrNotFound) {
		return SessionInfo{}, badInput("run 'rgit list' to see the sessions here", "no session named %q", name)
	} else if err != nil {
		return SessionInfo{}, err
	}
	path := ".research/" + name + "/state.json"
	data, err := s.ReadFile(head, path)
	if err != nil {
		return SessionInfo{}, fmt.Errorf("read %s: %w", path, err)
	}
	st, err := ParseState(branch+":"+path, data)
	if err != nil {
		return SessionInfo{}, err
	}
	info := SessionInfo{Name: name, Branch: branch, Topic: st.OriginalTopic, Stage: st.Stage, Phase: st.CurrentPhase,
		Iteration: st.Iteration, MaxIter: st.MaxIterations, Complete: st.IsComplete, Exhausted: st.Exhausted, Head: head, Usage: st.Usage}
	if src, err := s.ReadFile(head, ".research/"+name+"/research_plan.md"); err == nil {
		if p, err := plan.Parse("research_plan.md", src); err == nil {
			info.Counts = p.Counts()
			if detail {
				info.Tree = plan.Tree(p)
			}
		}
	}
	if l, ok, _ := ReadLock(filepath.Join(s.Root(), ".research", name)); ok {
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
	}
	return info, nil
}

// Log lists a session's phases, newest first, from the commit trailers.
func Log(dir, name string) ([]PhaseRow, error) {
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	s, err := openExisting(dir)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if _, err := s.Head("research/" + name); errors.Is(err, gitstore.ErrNotFound) {
		return nil, badInput("run 'rgit list' to see the sessions here", "no session named %q", name)
	}
	return phaseRows(s, "research/"+name, 0)
}

func phaseRows(s *gitstore.Store, branch string, limit int) ([]PhaseRow, error) {
	commits, err := s.Log(branch, limit)
	if err != nil {
		return nil, fmt.Errorf("read history: %w", err)
	}
	rows := make([]PhaseRow, 0, len(commits))
	for _, c := range commits {
		if c.Trailer("Rgit-Phase") == "" {
			continue
		}
		rows = append(rows, PhaseRow{Hash: c.Hash, When: c.When, Phase: c.Trailer("Rgit-Phase"), Iteration: c.Trailer("Rgit-Iteration"),
			Topic: c.Trailer("Rgit-Topic"), Verdict: c.Trailer("Rgit-Verdict"), Agent: c.Trailer("Rgit-Agent"), Model: c.Trailer("Rgit-Model"),
			Duration: c.Trailer("Rgit-Duration"), Tokens: c.Trailer("Rgit-Tokens"), Cost: c.Trailer("Rgit-Cost"), Summary: c.Summary})
	}
	return rows, nil
}

// Cancel asks the process running a session to stop: it gets SIGTERM,
// kills its agent, commits nothing half-done and exits.
func Cancel(dir, name string) (LockInfo, error) {
	if err := ValidateName(name); err != nil {
		return LockInfo{}, err
	}
	s, err := openExisting(dir)
	if err != nil {
		return LockInfo{}, err
	}
	root := s.Root()
	s.Close()
	info, ok, err := ReadLock(filepath.Join(root, ".research", name))
	if err != nil {
		return LockInfo{}, err
	}
	host, _ := os.Hostname()
	if !ok {
		return LockInfo{}, badInput("run 'rgit status --name "+name+"' to see its state", "session %q is not running", name)
	}
	if info.Host != host {
		return info, fmt.Errorf("session %q runs on %s (pid %d); cancel it there", name, info.Host, info.PID)
	}
	if stale, why := info.stale(host); stale {
		return info, badInput("resume it with --force-resume", "session %q is not running (%s)", name, why)
	}
	if err := syscall.Kill(info.PID, syscall.SIGTERM); err != nil {
		return info, fmt.Errorf("signal pid %d: %w", info.PID, err)
	}
	return info, nil
}

package phases

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases/layout"
)

// history is a session branch's first-parent history, newest first, with
// the session that wrote each commit: a fork's commits are its own down to
// its fork commit, and its source's below it (the Rgit-Fork-Of trailer
// names the source). owner is "" for a commit that is not a session
// phase (the target branch's commits under the start).
type history struct {
	name    string
	branch  string
	commits []gitstore.Commit
	owner   []string
}

// readHistory reads session name's history; a missing branch is bad
// input naming the session.
func readHistory(s Store, name string) (*history, error) {
	branch := layout.Branch(name)
	if _, err := s.Head(branch); errors.Is(err, gitstore.ErrNotFound) {
		return nil, noSession(name)
	} else if err != nil {
		return nil, fmt.Errorf("read session branch: %w", err)
	}
	commits, err := s.Log(branch, 0)
	if err != nil {
		return nil, fmt.Errorf("read history of %s: %w", branch, err)
	}
	h := &history{name: name, branch: branch, commits: commits, owner: make([]string, len(commits))}
	cur := name
	for i, c := range commits {
		phase := Phase(c.Trailer(string(TrailerPhase)))
		if phase == "" || phase == PhaseMerge || cur == "" {
			continue
		}
		h.owner[i] = cur
		if phase == PhaseFork {
			// Older commits are the source's; a malformed name ends the
			// session's history rather than naming a path outside it.
			cur = c.Trailer(string(TrailerForkOf))
			if ValidateName(cur) != nil {
				cur = ""
			}
		}
	}
	return h, nil
}

// newest is the index of the newest session commit, or -1.
func (h *history) newest() int {
	for i := range h.commits {
		if h.owner[i] != "" {
			return i
		}
	}
	return -1
}

// resolve finds rev among the session's commits and returns its index.
// rev is a commit hash or an unambiguous prefix of one (at least 4 hex
// digits), or HEAD, the session's name or its branch, each optionally
// followed by ~N or ^ steps back along first parents; "" is the newest
// session commit. Only commits the session (or the session it was forked
// from) wrote qualify: anything else is bad input.
func (h *history) resolve(rev string) (int, error) {
	notFound := func(why string) error {
		return badInput("run 'rgit log --name "+h.name+"' and pick one of its commits",
			"revision %q is not on %s: %s", rev, h.branch, why)
	}
	if rev == "" {
		if i := h.newest(); i >= 0 {
			return i, nil
		}
		return 0, notFound("the branch has no session commit")
	}
	base, back, err := splitRev(rev)
	if err != nil {
		return 0, notFound(err.Error())
	}
	at := -1
	switch base {
	case "HEAD", "head", h.name, h.branch, "refs/heads/" + h.branch:
		at = 0
	default:
		if len(base) < 4 || len(base) > 40 || strings.Trim(strings.ToLower(base), "0123456789abcdef") != "" {
			return 0, notFound("not a commit of the session")
		}
		for i, c := range h.commits {
			if strings.HasPrefix(c.Hash, strings.ToLower(base)) {
				if at >= 0 {
					return 0, notFound("the prefix names more than one commit")
				}
				at = i
			}
		}
	}
	if at < 0 {
		return 0, notFound("no such commit in its history")
	}
	at += back
	if at >= len(h.commits) || h.owner[at] == "" {
		return 0, notFound("not a commit of the session")
	}
	return at, nil
}

// splitRev takes "base~2^" apart into its base and the number of steps back.
func splitRev(rev string) (base string, back int, err error) {
	i := strings.IndexAny(rev, "~^")
	if i < 0 {
		return rev, 0, nil
	}
	base, rest := rev[:i], rev[i:]
	for rest != "" {
		op := rest[0]
		rest = rest[1:]
		n := 1
		if op == '~' {
			j := 0
			for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
				j++
			}
			if j > 0 {
				if n, err = strconv.Atoi(rest[:j]); err != nil || n > 1<<20 {
					return "", 0, fmt.Errorf("bad step %q", rest[:j])
				}
			}
			rest = rest[j:]
		} else if op != '^' {
			return "", 0, fmt.Errorf("unexpected %q", op)
		}
		back += n
	}
	return base, back, nil
}

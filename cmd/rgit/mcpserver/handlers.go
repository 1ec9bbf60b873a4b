package mcpserver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases"
)

// handlers are the six tools' work, between the checked arguments and
// Sessions.
type handlers struct {
	sessions Sessions
	dir      string
	poll     time.Duration
}

func (h *handlers) start(ctx context.Context, in startInput) (Started, string, error) {
	repo, err := h.repo(in.Repo)
	if err != nil {
		return Started{}, "", err
	}
	req, err := in.request(repo)
	if err != nil {
		return Started{}, "", err
	}
	st, err := h.sessions.Start(ctx, req)
	return st, startedText("started", st), err
}

func (h *handlers) status(ctx context.Context, in statusInput) (StatusView, string, error) {
	if err := in.check(); err != nil {
		return StatusView{}, "", err
	}
	repo, name, err := h.target(ctx, in.Repo, in.Name)
	if err != nil {
		return StatusView{}, "", err
	}
	v, err := h.sessions.Status(ctx, repo, name)
	if err != nil {
		return v, "", err
	}
	v, err = h.wait(ctx, repo, v, time.Duration(in.WaitSeconds)*time.Second)
	return v, statusText(v), err
}

// wait asks again every poll until the running session ends, the time is
// up, or the caller gives up, and returns the last answer. Waiting for the
// end, not for the next phase, keeps a polling model's calls (and tokens)
// few; the progress log is there for watching each step.
func (h *handlers) wait(ctx context.Context, repo string, v StatusView, d time.Duration) (StatusView, error) {
	if d <= 0 || v.State != Running {
		return v, nil
	}
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	tick := time.NewTicker(h.poll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return v, nil
		case <-deadline.C:
			return v, nil
		case <-tick.C:
		}
		next, err := h.sessions.Status(ctx, repo, v.Name)
		if err != nil {
			return v, err
		}
		if v = next; v.State != Running {
			return v, nil
		}
	}
}

func (h *handlers) report(ctx context.Context, in reportInput) (ReportView, string, error) {
	repo, name, err := h.target(ctx, in.Repo, in.Name)
	if err != nil {
		return ReportView{}, "", err
	}
	r, err := h.sessions.Report(ctx, repo, name)
	if err != nil {
		return r, "", err
	}
	// Only a session that is done has a report, whatever else is there.
	r.Finished = r.Finished && r.Status.State == Done
	if !r.Finished {
		r.Markdown, r.Title = "", ""
		if r.Status.State == Failed {
			return r, "", failedError(r.Status)
		}
	}
	return r, reportText(r), nil
}

type listOutput struct {
	Sessions []ListItem `json:"sessions"`
}

func (h *handlers) list(ctx context.Context, in listInput) (listOutput, string, error) {
	repo, err := h.repo(in.Repo)
	if err != nil {
		return listOutput{}, "", err
	}
	items, err := h.sessions.List(ctx, repo)
	if items == nil {
		items = []ListItem{}
	}
	return listOutput{Sessions: items}, listText(items), err
}

type cancelOutput struct {
	Name    string `json:"name"`
	Message string `json:"message"`
}

func (h *handlers) cancel(ctx context.Context, in cancelInput) (cancelOutput, string, error) {
	repo, name, err := h.target(ctx, in.Repo, in.Name)
	if err != nil {
		return cancelOutput{}, "", err
	}
	if err := h.sessions.Cancel(ctx, repo, name); err != nil {
		return cancelOutput{}, "", err
	}
	msg := "asked session " + name + " to stop: it commits nothing half-done, keeps its finished phases, and research_resume continues it"
	return cancelOutput{Name: name, Message: msg}, msg, nil
}

func (h *handlers) resume(ctx context.Context, in resumeInput) (Started, string, error) {
	repo, name, err := h.target(ctx, in.Repo, in.Name)
	if err != nil {
		return Started{}, "", err
	}
	req, err := in.request(repo, name)
	if err != nil {
		return Started{}, "", err
	}
	st, err := h.sessions.Resume(ctx, req)
	return st, startedText("resumed", st), err
}

// repo resolves the repository argument to the root of a git repository.
func (h *handlers) repo(arg string) (string, error) {
	dir := arg
	if dir == "" {
		dir = h.dir
	} else if !filepath.IsAbs(dir) {
		dir = filepath.Join(h.dir, dir)
	}
	const hint = "pass repo, the path of a git repository (rgit mcp works where it started otherwise)"
	// A missing directory would let the search climb to a parent's repository.
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", badInput(hint, "no such directory: %s", dir)
	}
	s, err := gitstore.Open(dir)
	if errors.Is(err, gitstore.ErrNotRepository) {
		return "", badInput(hint, "not a git repository: %s", dir)
	} else if err != nil {
		return "", err
	}
	defer s.Close()
	return s.Root(), nil
}

// target resolves the repository and the session: the name given, checked
// as the CLI checks it, or the repository's only session.
func (h *handlers) target(ctx context.Context, repoArg, name string) (string, string, error) {
	repo, err := h.repo(repoArg)
	if err != nil {
		return "", "", err
	}
	if name != "" {
		return repo, name, phases.ValidateName(name)
	}
	items, err := h.sessions.List(ctx, repo)
	switch {
	case err != nil:
		return "", "", err
	case len(items) == 1:
		return repo, items[0].Name, nil
	case len(items) == 0:
		return "", "", badInput("start one with research_start", "no research sessions here")
	}
	return "", "", badInput("call research_list and pass one as name", "%d sessions here; which one?", len(items))
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v2"

	"github.com/rgit-dev/rgit/cmd/rgit/mcpserver"
	"github.com/rgit-dev/rgit/gitstore"
	"github.com/rgit-dev/rgit/phases"
	"github.com/rgit-dev/rgit/phases/layout"
)

func mcpCommand(stdio *IO) *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "serve the research tools over MCP on standard input and output, for agent CLIs (see 'rgit integrate')",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("run 'rgit mcp' with no arguments; agent CLIs start it", "unexpected argument %q", c.Args().First())
			}
			clock, err := clockFrom(stdio.getenv)
			if err != nil {
				return err
			}
			wd, err := os.Getwd()
			if err != nil {
				return fmt.Errorf("find working directory: %w", err)
			}
			srv := mcpserver.New(phasesSessions{clock: clock}, mcpserver.Options{Dir: wd, Version: version})
			t := &mcp.IOTransport{Reader: io.NopCloser(stdio.In), Writer: nopWriteCloser{stdio.Out}}
			err = srv.Run(c.Context, t)
			// The client ends the server by closing its input or with a
			// signal (SIGINT from Claude Code, SIGTERM from Codex and Gemini
			// CLI): both are a normal end.
			if err == nil || c.Context.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
				return nil
			}
			return fmt.Errorf("serve mcp: %w", err)
		},
	}
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// phasesSessions serves the tools with rgit's own commands: start and
// resume run `rgit research --detach` (a session in its own process group
// that outlives this server), the others read and signal sessions as the
// CLI does.
type phasesSessions struct {
	clock phases.Clock
}

func (p phasesSessions) inspector(repo string) phases.Inspector {
	return phases.Inspector{Dir: repo, Clock: p.clock}
}

func (p phasesSessions) Start(_ context.Context, req mcpserver.StartRequest) (mcpserver.Started, error) {
	args := []string{"--yes", "--breadth=" + strconv.Itoa(req.Breadth), "--depth=" + strconv.Itoa(req.Depth)}
	if req.Name != "" {
		args = append(args, "--name="+req.Name)
	}
	if req.MaxIterations > 0 {
		args = append(args, "--max-iterations="+strconv.Itoa(req.MaxIterations))
	}
	switch req.Model {
	case "":
	case "mock":
		args = append(args, "--mock-mode")
	default:
		args = append(args, "--model="+req.Model)
	}
	if req.ReviewModel != "" && req.Model != "mock" {
		args = append(args, "--review-model="+req.ReviewModel)
	}
	if len(req.Council) > 0 {
		args = append(args, "--council="+councilArg(req.Council))
	}
	if req.Test {
		args = append(args, "--test")
	}
	args = append(budgetArgv(timeArg(args, req.TimeBudget), req.CostUSD, req.MaxTokens), "--", req.Topic)
	return detachIn(req.Repo, args)
}

func (p phasesSessions) Resume(_ context.Context, req mcpserver.ResumeRequest) (mcpserver.Started, error) {
	return detachIn(req.Repo, budgetArgv(timeArg([]string{"--name=" + req.Name, "--resume"}, req.TimeBudget), req.CostUSD, req.MaxTokens))
}

// councilArg is research_start's council as --council's value:
// ["installed"] is --council auto, every usable agent CLI (two at least).
func councilArg(members []string) string {
	if len(members) == 1 && members[0] == mcpserver.Installed {
		return "auto"
	}
	return strings.Join(members, ",")
}

func timeArg(args []string, budget time.Duration) []string {
	if budget > 0 {
		args = append(args, "--time="+strconv.FormatFloat(budget.Minutes(), 'g', -1, 64))
	}
	return args
}

// detachIn starts `rgit research args...` detached in repo: it returns
// once the session holds its lock, or with the error (and exit status)
// rgit research would have printed.
func detachIn(repo string, args []string) (mcpserver.Started, error) {
	d, err := startDetached(repo, args, io.Discard)
	if err != nil {
		return mcpserver.Started{}, err
	}
	return mcpserver.Started{Name: d.Name, Branch: d.Branch, ProgressLog: d.ProgressLog, PID: d.PID}, nil
}

func (p phasesSessions) Cancel(_ context.Context, repo, name string) error {
	_, err := p.inspector(repo).Cancel(name)
	return err
}

func (p phasesSessions) List(_ context.Context, repo string) ([]mcpserver.ListItem, error) {
	infos, err := p.inspector(repo).List()
	items := make([]mcpserver.ListItem, 0, len(infos))
	for _, s := range infos {
		items = append(items, mcpserver.ListItem{Name: s.Name, Topic: s.Topic, State: state(s), Phase: string(s.Phase),
			Topics: mcpserver.Counts{Complete: s.Counts.Complete, Total: s.Counts.Total}, Iteration: s.Iteration, MaxIterations: s.MaxIter})
	}
	return items, err
}

func (p phasesSessions) Status(_ context.Context, repo, name string) (mcpserver.StatusView, error) {
	s, err := p.inspector(repo).Status(name)
	if err != nil {
		return mcpserver.StatusView{}, err
	}
	v := mcpserver.StatusView{Name: s.Name, Branch: s.Branch, Topic: s.Topic, State: state(s), Phase: string(s.Phase),
		Iteration: s.Iteration, MaxIterations: s.MaxIter, Topics: mcpserver.Counts{Complete: s.Counts.Complete, Total: s.Counts.Total},
		Head: s.Head, Members: slices.Sorted(maps.Keys(s.Usage))}
	if len(s.Members) > 0 { // a council: its members, not only their backends
		v.Members = nil
		for _, m := range s.Members {
			name := m.Member
			if m.Failed != "" {
				name += " (left out: " + m.Failed + ")"
			}
			v.Members = append(v.Members, name)
		}
	}
	if r := s.LastRun; r != nil {
		v.ProgressLog = layout.New(repo, name).ProgressLog()
		v.ExitStatus, v.Error = r.ExitStatus, r.Error
	}
	for _, b := range slices.Sorted(maps.Keys(s.Usage)) {
		u := s.Usage[b]
		v.Usage = append(v.Usage, mcpserver.Usage{Backend: b, Calls: u.Calls, InputTokens: u.InputTokens,
			OutputTokens: u.OutputTokens, CostUSD: u.CostUSD, Seconds: u.Seconds})
	}
	for i := len(s.Recent) - 1; i >= 0; i-- { // oldest first
		v.Events = append(v.Events, mcpserver.Event{Time: s.Recent[i].When, Text: s.Recent[i].Summary})
	}
	return v, nil
}

// state names a session: its last run's state when one is recorded
// (running, done, failed, or stopped when cancelled or killed), else
// complete, or running under a lock, else stopped (resumable).
func state(s phases.SessionInfo) mcpserver.State {
	if r := s.LastRun; r != nil {
		switch r.State {
		case phases.RunRunning:
			return mcpserver.Running
		case phases.RunFailed:
			return mcpserver.Failed
		case phases.RunStopped:
			return mcpserver.Stopped
		}
	}
	switch {
	case s.Complete:
		return mcpserver.Done
	case s.Lock != nil:
		return mcpserver.Running
	}
	return mcpserver.Stopped
}

func (p phasesSessions) Report(ctx context.Context, repo, name string) (mcpserver.ReportView, error) {
	v, err := p.Status(ctx, repo, name)
	if err != nil {
		return mcpserver.ReportView{}, err
	}
	r := mcpserver.ReportView{Name: name, Branch: v.Branch, Status: v}
	if v.State != mcpserver.Done {
		return r, nil
	}
	s, err := gitstore.Open(repo)
	if err != nil {
		return r, err
	}
	defer s.Close()
	r.Path = layout.New(repo, name).ReportTree()
	data, err := s.ReadFile(v.Head, r.Path)
	if err != nil {
		return r, fmt.Errorf("read %s of session %s: %w", r.Path, name, err)
	}
	r.Finished, r.Markdown, r.Title = true, string(data), title(string(data))
	return r, nil
}

// title is the report's first level-one heading.
func title(md string) string {
	for _, line := range strings.Split(md, "\n") {
		if t, ok := strings.CutPrefix(strings.TrimSpace(line), "# "); ok {
			return strings.TrimSpace(t)
		}
	}
	return ""
}

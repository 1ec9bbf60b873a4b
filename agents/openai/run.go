package openai

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/rgit-dev/rgit/agents"
)

// systemPrompt tells a tool-calling model where it works. The phase
// instructions themselves are the task's prompt, sent as the user message.
const systemPrompt = `You are a careful research agent working non-interactively.
Your workspace directory is %s.
Your output file is %s.
Use the tools to read the workspace and corpus, fetch sources and search,
then write the complete output file with write_file (a path inside the
workspace, or exactly the output file). Cite fetched pages by the file name
fetch_url returns. If you cannot call tools, answer with the complete
content of the output file and nothing else.`

// Run executes one phase: a bounded loop of model calls and tool calls.
func (a *Agent) Run(ctx context.Context, task agents.Task) (agents.Result, error) {
	start := time.Now()
	if task.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, task.Timeout)
		defer cancel()
	}
	var res agents.Result
	model := task.Model
	if model == "" {
		model = a.o.Model
	}
	if model == "" {
		return res, &agents.CallError{Backend: a.Name(), Msg: "no model given: name one as openai:<model>"}
	}
	if u, err := url.Parse(a.o.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		// Retrying cannot fix a bad endpoint: stop the session at once.
		return res, &agents.CallError{Backend: a.Name(), Kind: agents.ErrNotInstalled,
			Msg: a.redact(fmt.Sprintf("base URL %q is not an http(s) URL; set OPENAI_BASE_URL, e.g. %s", a.o.BaseURL, DefaultBaseURL))}
	}
	ws, err := a.newWorkspace(task)
	if err != nil {
		return res, &agents.CallError{Backend: a.Name(), Msg: err.Error()}
	}
	req := chatRequest{
		Model: model,
		Messages: []message{
			{Role: "system", Content: fmt.Sprintf(systemPrompt, task.Dir, task.Output)},
			{Role: "user", Content: task.Prompt},
		},
		Tools:         ws.tools(),
		Stream:        true,
		StreamOptions: &streamOptions{IncludeUsage: true},
	}
	sessionID := ""
	if prev := a.sess.get(task.SessionID); len(prev) > 0 {
		sessionID = task.SessionID
		req.Messages = append(prev, message{Role: "user", Content: task.Prompt})
	}
	err = a.loop(ctx, ws, &req, &res)
	res.SessionID = a.sess.put(sessionID, req.Messages)
	res.Files = ws.written
	res.Sources = ws.sources
	res.Usage.Duration = time.Since(start)
	res.Text = a.redact(res.Text)
	if err != nil {
		res.ExitCode = 1
		return res, a.callError(ctx, err, task.Timeout)
	}
	return res, nil
}

// loop alternates model calls and tool calls until the model answers
// without tool calls or the turn budget is spent.
func (a *Agent) loop(ctx context.Context, ws *workspace, req *chatRequest, res *agents.Result) error {
	for turn := 0; turn < a.o.MaxTurns; turn++ {
		rep, err := a.complete(ctx, req)
		res.Usage.Add(rep.usage)
		if errors.Is(err, errToolsRejected) && len(req.Tools) > 0 {
			// The server or model cannot call tools: fall back to plain text.
			req.Tools = nil
			continue
		}
		if err != nil {
			return err
		}
		if len(rep.calls) == 0 || len(req.Tools) == 0 {
			res.Text = unfence(rep.content)
			req.Messages = append(req.Messages, message{Role: "assistant", Content: rep.content})
			return nil
		}
		req.Messages = append(req.Messages, message{Role: "assistant", Content: rep.content, ToolCalls: rep.calls})
		for _, c := range rep.calls {
			out := ws.call(ctx, c.Function.Name, c.Function.Arguments)
			req.Messages = append(req.Messages, message{Role: "tool", ToolCallID: c.ID, Content: out})
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if ws.wroteOutput() {
		return nil
	}
	return fmt.Errorf("stop after %d turns without writing %s", a.o.MaxTurns, ws.output)
}

// callError classifies err as an agents.CallError with the key redacted.
func (a *Agent) callError(ctx context.Context, err error, timeout time.Duration) error {
	if errors.Is(err, context.Canceled) && errors.Is(ctx.Err(), context.Canceled) {
		// A user's interrupt, not a failing agent: the caller stops cleanly.
		return fmt.Errorf("run openai: %w", ctx.Err())
	}
	var ce *agents.CallError
	if errors.As(err, &ce) {
		ce.Msg = a.redact(ce.Msg)
		return ce
	}
	ce = &agents.CallError{Backend: a.Name(), Msg: a.redact(err.Error())}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		ce.Kind = agents.ErrTimeout
		if timeout > 0 {
			ce.Msg = fmt.Sprintf("no complete answer within %s", timeout)
		}
	}
	return ce
}

// unfence strips one code fence around the whole answer: plain-text models
// like to wrap the markdown they were asked for in ```markdown.
func unfence(s string) string {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "```") || !strings.HasSuffix(t, "```") || len(t) < 6 {
		return s
	}
	body := strings.TrimSuffix(t, "```")
	nl := strings.IndexByte(body, '\n')
	if nl < 0 || strings.Contains(body[nl:], "\n```") {
		return s
	}
	return strings.TrimSpace(body[nl+1:]) + "\n"
}

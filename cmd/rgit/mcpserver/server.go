// Package mcpserver is `rgit mcp`: an MCP server (the official Go SDK)
// whose tools start, watch, read, list, cancel and resume research
// sessions, for agent CLIs whose shell tool is killed long before a
// session ends. research_start returns at once with the session's name,
// branch and progress log; research_status (which can wait for the
// session to move) and research_report follow it to its report.
//
// The tools check their arguments and answer bad input with the lines
// rgit's CLI prints ("rgit: error: ...", "rgit: hint: ..."), as a tool
// error. Every result, text and structured, passes through the redactor:
// no secret leaves. What the tools do is behind the Sessions interface,
// which cmd/rgit wires to the research sessions.
package mcpserver

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rgit-dev/rgit/agents/redact"
)

// Options configure the server.
type Options struct {
	Dir      string           // the repository used when a call names none: where rgit mcp started
	Version  string           // rgit's version, told to clients
	Redactor *redact.Redactor // nil: the redactor of this process's environment
	// Poll is how often research_status looks again while it waits;
	// default one second.
	Poll time.Duration
}

// instructions are told to clients when they connect.
const instructions = "rgit runs deep research as git-native sessions in the background. " +
	"research_start starts one and returns at once; then call research_status with wait_seconds " +
	"until its state is done, failed or stopped, and research_report for the cited report. " +
	"A session survives this conversation; research_cancel stops it and research_resume continues it."

// New builds the server and its six tools.
func New(sessions Sessions, o Options) *mcp.Server {
	if o.Redactor == nil {
		o.Redactor = redact.Env()
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	h := &handlers{sessions: sessions, dir: o.Dir, poll: o.Poll}
	srv := mcp.NewServer(&mcp.Implementation{Name: "rgit", Title: "rgit deep research", Version: o.Version},
		&mcp.ServerOptions{Instructions: instructions})
	red := o.Redactor
	no, yes := false, true
	addTool(srv, red, &mcp.Tool{Name: "research_start", Title: "Start a research session",
		Description: "Start a deep research session in the background and return at once with its name, branch and " +
			"progress log. rgit plans a tree of topics (breadth, depth), has an agent (model) or a council of agents " +
			"research and review each one, and writes a cited report; every phase is a git commit on research/<name>.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: &no, OpenWorldHint: &yes}}, h.start)
	addTool(srv, red, &mcp.Tool{Name: "research_status", Title: "Show a research session",
		Description: "Describe a session: state (running, done, failed, stopped), phase, iteration, topics, members, " +
			"usage and recent events. With wait_seconds it waits for a running session to end before answering.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}}, h.status)
	addTool(srv, red, &mcp.Tool{Name: "research_report", Title: "Read a session's report",
		Description: "The finished session's report: its Markdown, title and path. A session that is not done " +
			"answers \"not finished\" with its status; a failed one is an error saying why.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}}, h.report)
	addTool(srv, red, &mcp.Tool{Name: "research_list", Title: "List research sessions",
		Description: "Every research session in the repository with its state, phase and progress.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}}, h.list)
	addTool(srv, red, &mcp.Tool{Name: "research_cancel", Title: "Cancel a research session",
		Description: "Ask a running session to stop. It commits nothing half-done, keeps every finished phase, " +
			"and research_resume continues it.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: &no, IdempotentHint: true, OpenWorldHint: &no}}, h.cancel)
	addTool(srv, red, &mcp.Tool{Name: "research_resume", Title: "Resume a research session",
		Description: "Continue a stopped or failed session from its branch, in the background, and return at once.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: &no, OpenWorldHint: &yes}}, h.resume)
	return srv
}

// Serve runs the server on stdin and stdout until the client leaves or
// ctx ends.
func Serve(ctx context.Context, sessions Sessions, o Options) error {
	return New(sessions, o).Run(ctx, &mcp.StdioTransport{})
}

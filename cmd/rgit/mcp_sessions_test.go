//go:build unix

package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rgit-dev/rgit/agents/redact"
	"github.com/rgit-dev/rgit/cmd/rgit/mcpserver"
	"github.com/rgit-dev/rgit/phases"
)

// mcpSession serves rgit's real tools (phasesSessions) for repo over the
// SDK's in-memory transport. Sessions start as detached rgit processes:
// this test binary, acting as rgit.
func mcpSession(t *testing.T, repo string) *mcp.ClientSession {
	t.Helper()
	t.Setenv("RGIT_TEST_AS_RGIT", "1")
	t.Setenv("RGIT_MOCK_DELAY", "")
	for _, kv := range gitEnv(repo) {
		if k, v, ok := strings.Cut(kv, "="); ok && (strings.HasPrefix(k, "GIT_") || k == "HOME") {
			t.Setenv(k, v)
		}
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	srv := mcpserver.New(phasesSessions{clock: phases.SystemClock}, mcpserver.Options{Dir: repo, Redactor: redact.New(nil), Poll: 20 * time.Millisecond})
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// callTool returns a tool's error flag, text and structured content.
func callTool(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (isError bool, text string, out map[string]any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += tc.Text
		}
	}
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &out)
	}
	return res.IsError, text, out
}

// waitDone asks research_status until the session is no longer running.
func waitDone(t *testing.T, cs *mcp.ClientSession, name string) (text string, out map[string]any) {
	t.Helper()
	for range 10 {
		isErr, text, out := callTool(t, cs, "research_status", map[string]any{"name": name, "wait_seconds": 45})
		if isErr {
			t.Fatalf("research_status: %s", text)
		}
		if out["state"] != "running" {
			return text, out
		}
	}
	t.Fatalf("session %s still running", name)
	return "", nil
}

// TestMCPStartDetached: research_start answers at once with a detached
// session's name, branch and progress log; research_status follows it to
// done; research_report returns its report.
func TestMCPStartDetached(t *testing.T) {
	repo := newRepo(t)
	cs := mcpSession(t, repo)
	isErr, text, out := callTool(t, cs, "research_start", map[string]any{"topic": "How do tides work?", "model": "mock", "breadth": 1, "depth": 0})
	if isErr {
		t.Fatalf("research_start: %s", text)
	}
	log := filepath.Join(repo, ".research", "how-do-tides-work", "progress.log")
	if out["name"] != "how-do-tides-work" || out["branch"] != "research/how-do-tides-work" || out["progress_log"] != log {
		t.Errorf("research_start answered %v", out)
	}
	if _, err := os.Stat(log); err != nil {
		t.Errorf("no progress log when research_start answered: %v", err)
	}
	text, out = waitDone(t, cs, "how-do-tides-work")
	if out["state"] != "done" || out["exit_status"] != 0.0 || !strings.Contains(text, "next: call research_report") {
		t.Errorf("status after the end:\n%s", text)
	}
	isErr, text, out = callTool(t, cs, "research_report", map[string]any{"name": "how-do-tides-work"})
	if isErr || out["finished"] != true || out["title"] != "Research Report: How do tides work?" {
		t.Errorf("report: %s", text)
	}
}

// TestMCPFailingSession: a session that fails after it started is
// reported failed with its error; research_report refuses it; a resume
// finishes it.
func TestMCPFailingSession(t *testing.T) {
	repo := newRepo(t)
	cs := mcpSession(t, repo)
	t.Setenv("RGIT_MOCK_FAIL", "error@research*all")
	if isErr, text, _ := callTool(t, cs, "research_start", map[string]any{"topic": "How fast does kelp grow?", "name": "kelp", "model": "mock", "breadth": 1, "depth": 0}); isErr {
		t.Fatalf("research_start: %s", text)
	}
	text, out := waitDone(t, cs, "kelp")
	if out["state"] != "failed" || out["exit_status"] != 1.0 || !strings.Contains(text, "research failed: no topic was accepted") ||
		!strings.Contains(text, "it has no report") {
		t.Errorf("status of a failed session:\n%s", text)
	}
	isErr, text, _ := callTool(t, cs, "research_report", map[string]any{"name": "kelp"})
	if !isErr || !strings.HasPrefix(text, "rgit: error: session kelp failed, so it has no report: research failed: no topic was accepted") {
		t.Errorf("report of a failed session: %v %s", isErr, text)
	}
	t.Setenv("RGIT_MOCK_FAIL", "")
	if isErr, text, out := callTool(t, cs, "research_resume", map[string]any{"name": "kelp"}); isErr || out["branch"] != "research/kelp" {
		t.Fatalf("research_resume: %s", text)
	}
	if _, out := waitDone(t, cs, "kelp"); out["state"] != "done" {
		t.Errorf("resumed session ended %v", out["state"])
	}
}

// TestMCPStartRefused: what rgit refuses is a tool error with the CLI's
// lines, and no session is written.
func TestMCPStartRefused(t *testing.T) {
	repo := newRepo(t)
	cs := mcpSession(t, repo)
	tests := []struct {
		name string
		tool string
		args map[string]any
		want string
	}{
		{"council of one", "research_start", map[string]any{"topic": "t", "council": []string{"mock:alpha"}},
			"rgit: error: a council needs at least two members"},
		{"negative token budget", "research_start", map[string]any{"topic": "t", "model": "mock", "max_tokens": -5},
			"rgit: error: invalid max_tokens -5: must be 0 or more"},
		{"no such session", "research_resume", map[string]any{"name": "nope"},
			"rgit: error: no session named \"nope\" to resume\nrgit: hint: run 'rgit list' to see the sessions here"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isErr, text, _ := callTool(t, cs, tt.tool, tt.args)
			if !isErr || !strings.HasPrefix(text, tt.want) {
				t.Errorf("%v %q, want it to start with %q", isErr, text, tt.want)
			}
		})
	}
	if out := gitOut(t, repo, "for-each-ref", "refs/heads/research/"); out != "" {
		t.Errorf("refused calls wrote branches:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(repo, ".research")); err == nil {
		t.Error("refused calls wrote a workspace")
	}
}

// TestMCPCouncil: research_start with council members starts a council
// session (seed 000): each member researches on its own branch, the
// survivors are merged, and the report is the council's synthesis.
func TestMCPCouncil(t *testing.T) {
	repo := newRepo(t)
	cs := mcpSession(t, repo)
	isErr, text, out := callTool(t, cs, "research_start", map[string]any{"topic": "How do tides work?", "name": "tides",
		"council": []string{"mock:alpha", "mock:beta"}, "breadth": 1, "depth": 0, "test": true})
	if isErr || out["branch"] != "research/tides" {
		t.Fatalf("research_start: %s", text)
	}
	text, out = waitDone(t, cs, "tides")
	if out["state"] != "done" {
		t.Fatalf("council session ended:\n%s", text)
	}
	if members, _ := json.Marshal(out["members"]); string(members) != `["mock-alpha","mock-beta"]` {
		t.Errorf("status names the members %s, want mock-alpha and mock-beta:\n%s", members, text)
	}
	refs := gitOut(t, repo, "for-each-ref", "--format=%(refname:short)", "refs/heads/research/")
	if want := "research/tides\nresearch/tides.mock-alpha\nresearch/tides.mock-beta\n"; refs != want {
		t.Errorf("branches:\n%s\nwant:\n%s", refs, want)
	}
	for _, member := range []string{"research/tides.mock-alpha", "research/tides.mock-beta"} {
		if _, err := gitTry(repo, "merge-base", "--is-ancestor", member, "research/tides"); err != nil {
			t.Errorf("%s is not merged into the session branch: %v", member, err)
		}
	}
	isErr, text, out = callTool(t, cs, "research_report", map[string]any{"name": "tides"})
	if isErr || out["finished"] != true {
		t.Fatalf("report: %s", text)
	}
	md, _ := out["markdown"].(string)
	for _, want := range []string{"mock-alpha", "mock-beta"} {
		if !strings.Contains(md, want) {
			t.Errorf("the report does not name council member %s:\n%s", want, md)
		}
	}
}

// TestMCPCouncilInstalled: ["installed"] is every agent CLI installed
// here; with fewer than two it is refused as --council auto is, and
// nothing is written.
func TestMCPCouncilInstalled(t *testing.T) {
	for _, cli := range []string{"claude", "codex", "gemini", "opencode"} {
		if _, err := exec.LookPath(cli); err == nil {
			t.Skipf("%s is installed", cli)
		}
	}
	t.Setenv("OPENAI_BASE_URL", "")
	repo := newRepo(t)
	cs := mcpSession(t, repo)
	isErr, text, _ := callTool(t, cs, "research_start", map[string]any{"topic": "t", "council": []string{"installed"}, "test": true})
	if want := "rgit: error: --council auto needs two usable agent backends, found 0 (none)\nrgit: hint: install or log in to at least two of them"; !isErr || !strings.HasPrefix(text, want) {
		t.Errorf("%v %q, want it to start with %q", isErr, text, want)
	}
	if out := gitOut(t, repo, "for-each-ref", "refs/heads/research/"); out != "" {
		t.Errorf("a refused council wrote branches:\n%s", out)
	}
}

// TestMCPCouncilCancel: research_cancel (the plugin's /cancel-research)
// stops a running council session, which stays resumable: research_resume
// finishes it.
func TestMCPCouncilCancel(t *testing.T) {
	repo := newRepo(t)
	cs := mcpSession(t, repo)
	t.Setenv("RGIT_MOCK_DELAY", "2s") // each agent call: the session is still running when cancelled
	if isErr, text, _ := callTool(t, cs, "research_start", map[string]any{"topic": "How do tides work?", "name": "tides",
		"council": []string{"mock:alpha", "mock:beta"}, "breadth": 1, "depth": 0, "test": true}); isErr {
		t.Fatalf("research_start: %s", text)
	}
	if isErr, text, _ := callTool(t, cs, "research_cancel", map[string]any{"name": "tides"}); isErr {
		t.Fatalf("research_cancel: %s", text)
	}
	if text, out := waitDone(t, cs, "tides"); out["state"] != "stopped" {
		t.Fatalf("cancelled council session:\n%s", text)
	}
	if _, text, out := callTool(t, cs, "research_report", map[string]any{"name": "tides"}); out["finished"] != false ||
		!strings.Contains(text, "not finished: session tides is stopped") || !strings.Contains(text, "research_resume continues it") {
		t.Errorf("report of a cancelled session: %s", text)
	}
	t.Setenv("RGIT_MOCK_DELAY", "")
	if isErr, text, _ := callTool(t, cs, "research_resume", map[string]any{"name": "tides"}); isErr {
		t.Fatalf("research_resume: %s", text)
	}
	if text, out := waitDone(t, cs, "tides"); out["state"] != "done" {
		t.Errorf("resumed council session:\n%s", text)
	}
}

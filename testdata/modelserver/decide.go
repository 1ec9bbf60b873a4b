package modelserver

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rgit-dev/rgit/agents"
)

// turn is a request reduced to what the script needs, whatever the API.
type turn struct {
	system  string   // system prompt text
	prompts []prompt // user messages that are not tool results, in order
	tools   []tool   // tools the client offered
	calls   []string // tool calls the assistant already made, in order
	results []string // the text of the tool results, in order
}

// prompt is one user message and how many tool calls came before it: a
// resumed conversation brings a new prompt after earlier calls.
type prompt struct {
	text  string
	calls int
}

func (t *turn) addUser(text string) {
	if strings.TrimSpace(text) != "" {
		t.prompts = append(t.prompts, prompt{text: text, calls: len(t.calls)})
	}
}

// userText joins every prompt, for requests where none names a job.
func (t turn) userText() string {
	var b strings.Builder
	for _, p := range t.prompts {
		b.WriteString(p.text + "\n")
	}
	return b.String()
}

// tool is one offered tool and the names of its parameters; namespace is
// the namespace tool it sits in (Codex's MCP tools), if any.
type tool struct {
	name      string
	namespace string
	props     []string
}

// action is the next assistant turn: a tool call, or final text.
type action struct {
	call *Call
	text string
}

// Known names of the clients' file tools: Claude Code, opencode, rgit and
// Gemini-style agents.
var (
	writeTools = []string{"Write", "write", "write_file", "WriteFile", "create_file"}
	readTools  = []string{"Read", "read", "read_file", "ReadFile", "read_text_file"}
	shellTools = []string{"exec_command", "shell", "run_shell_command", "bash", "Bash"}
	pathProps  = []string{"file_path", "filePath", "path", "absolute_path", "filename", "file"}
	textProps  = []string{"content", "contents", "text", "file_text"}
	cmdProps   = []string{"cmd", "command"}
)

// decide plays one turn. The conversation state is derived from the request
// alone (how many tool calls the assistant has made), so the server keeps
// no per-session state.
func (s *Script) decide(t turn) (action, Job) {
	if call, ok := toolSearch(t); ok {
		return action{call: call}, Job{Prompt: t.userText(), MCP: "toolsearch"}
	}
	if m, ok := findMCP(t); ok {
		act, step := m.step(t)
		job := Job{Prompt: t.userText(), MCP: step}
		if n := len(t.results); n > 0 {
			job.Result = t.results[n-1]
		}
		return act, job
	}
	if text, ok := pageSummary(t); ok {
		return action{text: text}, Job{Prompt: t.userText()}
	}
	recognise := Recognise
	if s.Recognise != nil {
		recognise = s.Recognise
	}
	// The latest prompt that names a job is the task; only the tool calls
	// made since it count, so a resumed session does the new task afresh.
	var job Job
	all := t.calls
	for i := len(t.prompts) - 1; i >= 0 && job.Output == ""; i-- {
		job = recognise(t.prompts[i].text)
		t.calls = all[t.prompts[i].calls:]
	}
	if job.Output == "" {
		t.calls = all
		job = recognise(t.system + "\n" + t.userText())
	}
	if job.Output == "" || strings.Contains(strings.ToLower(t.system), "title generator") {
		// Not a phase: a title request, a probe, a chat. Answer briefly.
		return action{text: "rgit research"}, Job{Prompt: t.userText()}
	}
	content := s.content(job)
	final := "Wrote " + job.Output + "."
	if job.Phase == agents.PhaseReview || job.Phase == agents.PhaseFinalReview {
		final = s.verdict(job.Prompt)
	}
	write, ok := t.find(writeTools)
	shell, isShell := t.find(shellTools)
	if s.PlainText || (!ok && !isShell) {
		if job.Phase == agents.PhaseReview || job.Phase == agents.PhaseFinalReview {
			return action{text: final}, job
		}
		return action{text: content}, job
	}
	if !ok { // a shell is the only way to write, as with Codex
		write = shell
	}
	if slices.Contains(t.calls, write.name) {
		return action{text: final}, job
	}
	var steps []Call
	for _, c := range s.Before {
		if _, ok := t.find([]string{c.Tool}); ok {
			steps = append(steps, c)
		}
	}
	if job.Phase == agents.PhaseResearch {
		steps = append(steps, s.fetchSteps(t)...)
	}
	if !ok {
		steps = append(steps, Call{Tool: shell.name, Args: map[string]any{shell.prop(cmdProps, "cmd"): heredoc(job.Output, content)}})
		return s.step(t, steps, final, job)
	}
	// Claude Code and opencode refuse to overwrite a file the model has not
	// read in this session; the server shares the client's disk, so look.
	if read, ok := t.find(readTools); ok {
		if _, err := os.Stat(job.Output); err == nil {
			steps = append(steps, Call{Tool: read.name, Args: map[string]any{read.prop(pathProps, "file_path"): job.Output}})
		}
	}
	steps = append(steps, Call{Tool: write.name, Args: map[string]any{
		write.prop(pathProps, "file_path"): job.Output,
		write.prop(textProps, "content"):   content,
	}})
	return s.step(t, steps, final, job)
}

// step picks the next of steps, or the final text when all were made.
func (s *Script) step(t turn, steps []Call, final string, job Job) (action, Job) {
	if n := len(t.calls); n < len(steps) {
		return action{call: &steps[n]}, job
	}
	return action{text: final}, job
}

// heredoc is a shell command that writes content to path, for clients
// whose only file tool is a shell. The delimiter is made unique against
// the content.
func heredoc(path, content string) string {
	delim := "RGIT_EOF"
	for strings.Contains(content, delim) {
		delim += "_X"
	}
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	if !strings.HasSuffix(content, "\n") {
		content += "\n"
	}
	return fmt.Sprintf("mkdir -p %s && cat > %s <<'%s'\n%s%s\n", q(filepath.Dir(path)), q(path), delim, content, delim)
}

// find returns the first offered tool whose name is in names.
func (t turn) find(names []string) (tool, bool) {
	for _, n := range names {
		for _, tl := range t.tools {
			if tl.name == n {
				return tl, true
			}
		}
	}
	return tool{}, false
}

// prop picks the parameter name the tool's schema uses among candidates.
func (tl tool) prop(candidates []string, fallback string) string {
	for _, c := range candidates {
		if slices.Contains(tl.props, c) {
			return c
		}
	}
	return fallback
}

func (t turn) toolNames() []string {
	names := make([]string, len(t.tools))
	for i, tl := range t.tools {
		names[i] = tl.name
	}
	return names
}

// schemaProps lists the property names of a JSON schema object.
func schemaProps(schema map[string]any) []string {
	props, _ := schema["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// codexResumeFlags are the options `codex exec resume --help` lists
// (codex-cli 0.169.0); codexExecFlags adds those only `codex exec` takes.
// clap rejects --sandbox, --cd and --add-dir after `resume`, and
// --full-auto everywhere.
var codexResumeFlags = []flagSpec{
	specs(valueFlag, "-c", "--config"), specs(boolFlag, "--last"), specs(boolFlag, "--all"),
	specs(valueFlag, "--enable"), specs(valueFlag, "--disable"), specs(valueFlag, "-i", "--image"),
	specs(boolFlag, "--strict-config"), specs(valueFlag, "-m", "--model"),
	specs(boolFlag, "--dangerously-bypass-approvals-and-sandbox", "--yolo"),
	specs(boolFlag, "--dangerously-bypass-hook-trust"), specs(boolFlag, "--skip-git-repo-check"),
	specs(boolFlag, "--ephemeral"), specs(boolFlag, "--ignore-user-config"), specs(boolFlag, "--ignore-rules"),
	specs(valueFlag, "--output-schema"), specs(boolFlag, "--json", "--experimental-json"),
	specs(valueFlag, "-o", "--output-last-message"), specs(boolFlag, "--trust"),
}

var codexExecFlags = append([]flagSpec{
	specs(boolFlag, "--oss"), specs(valueFlag, "--local-provider"), specs(valueFlag, "-p", "--profile"),
	specs(valueFlag, "-s", "--sandbox"), specs(boolFlag, "--approve-for-me"), specs(valueFlag, "-C", "--cd"),
	specs(valueFlag, "--add-dir"), specs(valueFlag, "--color"),
}, codexResumeFlags...)

func codex(args []string) int {
	if len(args) == 0 || args[0] != "exec" {
		fmt.Fprintln(os.Stderr, "fake codex: only `codex exec` is implemented")
		return 2
	}
	args = args[1:]
	execArgs, resumeArgs, resuming := args, []string(nil), false
	for i, a := range args {
		if a == "resume" {
			execArgs, resumeArgs, resuming = args[:i], args[i+1:], true
			break
		}
	}
	f := parseFlags(execArgs, codexExecFlags)
	usage := "codex exec [OPTIONS] [PROMPT]\n       codex exec [OPTIONS] <COMMAND> [ARGS]"
	if f.wrong == "" && resuming {
		r := parseFlags(resumeArgs, codexResumeFlags)
		f.wrong, usage = r.wrong, "codex exec resume [OPTIONS] [SESSION_ID] [PROMPT]"
		for k, v := range r.vals {
			f.vals[k] = append(f.vals[k], v...)
		}
		f.pos = r.pos
	}
	if f.wrong != "" {
		fmt.Fprintf(os.Stderr, "error: unexpected argument '%s' found\n\n  tip: to pass '%s' as a value, use '-- %s'\n\nUsage: %s\n\nFor more information, try '--help'.\n",
			f.wrong, f.wrong, f.wrong, usage)
		return 2
	}
	if s := f.get("-s"); s != "" && s != "read-only" && s != "workspace-write" && s != "danger-full-access" {
		fmt.Fprintf(os.Stderr, "error: invalid value '%s' for '--sandbox <SANDBOX_MODE>'\n", s)
		return 2
	}
	dir, _ := os.Getwd()
	if d := f.get("-C"); d != "" {
		dir = d
	}
	if !f.has("--skip-git-repo-check") && !f.has("--dangerously-bypass-approvals-and-sandbox") && !inGitRepo(dir) {
		replay(os.Stderr, "codex_nogit.stderr")
		return 1
	}
	var session string
	pos := f.pos
	if resuming {
		if len(pos) == 0 {
			fmt.Fprintln(os.Stderr, "error: a session id or --last is required")
			return 2
		}
		session, pos = pos[0], pos[1:]
		if !sessionKnown("codex", session) {
			fmt.Fprintf(os.Stderr, "Error: thread/resume: no rollout found for thread id %s\n", session)
			return 1
		}
	}
	stdin := ""
	if len(pos) == 0 || pos[0] == "-" {
		stdin = readStdin()
		pos = nil
	}
	prompt := strings.TrimSpace(strings.Join(append(pos, stdin), "\n"))
	logCall(args, stdin)
	if prompt == "" {
		fmt.Fprintln(os.Stderr, "No prompt provided. Either specify one as an argument or pipe the prompt into stdin.")
		return 1
	}
	if !f.has("--json") {
		fmt.Fprintln(os.Stderr, "fake codex: only --json is implemented")
		return 1
	}
	switch scenario() {
	case "auth":
		replay(os.Stdout, "codex_auth.jsonl")
		return 1
	case "ratelimit":
		replay(os.Stdout, "codex_ratelimit.jsonl")
		return 1
	case "quota":
		replay(os.Stdout, "codex_quota.jsonl")
		return 1
	}
	if session == "" {
		session = uuid()
	}
	rememberSession("codex", session)
	emit(map[string]any{"type": "thread.started", "thread_id": session})
	emit(map[string]any{"type": "turn.started"})
	if scenario() == "hang" {
		hang()
	}
	emit(map[string]any{"type": "item.completed", "item": map[string]any{"id": "item_0", "type": "error",
		"message": "Codex is ignoring 1 unrecognized configuration settings."}})
	emit(map[string]any{"type": "item.completed", "item": map[string]any{"id": "item_1", "type": "command_execution",
		"command": "/bin/bash -lc 'ls'", "aggregated_output": "", "exit_code": 0, "status": "completed"}})
	if w := writePath(); w != "" {
		emit(map[string]any{"type": "item.completed", "item": map[string]any{"id": "item_3", "type": "file_change",
			"changes": []any{map[string]any{"path": w, "kind": "add"}}, "status": "completed"}})
	}
	text := "fake codex answer: " + excerpt(prompt)
	emit(map[string]any{"type": "item.completed", "item": map[string]any{"id": "item_2", "type": "agent_message", "text": text}})
	switch scenario() {
	case "truncated":
		return 0
	case "iserror":
		emit(map[string]any{"type": "error", "message": "stream disconnected before completion: model overloaded"})
		emit(map[string]any{"type": "turn.failed", "error": map[string]any{"message": "stream disconnected before completion"}})
		return 1
	}
	if err := writeWorkspace(prompt); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if o := f.get("-o"); o != "" {
		os.WriteFile(o, []byte(text), 0o644)
	}
	emit(map[string]any{"type": "turn.completed", "usage": map[string]any{"input_tokens": 31003,
		"cached_input_tokens": 19968, "cache_write_input_tokens": 0, "output_tokens": 135, "reasoning_output_tokens": 60}})
	return 0
}

func inGitRepo(dir string) bool {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

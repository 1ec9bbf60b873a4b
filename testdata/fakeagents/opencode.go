package main

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// opencodeFlags are `opencode run --help` of opencode 1.18.33, plus the
// hidden aliases of --auto; yargs is strict, and an unknown flag prints
// the help to stderr and exits 1.
var opencodeFlags = []flagSpec{
	specs(boolFlag, "-h", "--help"), specs(boolFlag, "--print-logs"), specs(valueFlag, "--log-level"),
	specs(boolFlag, "--pure"), specs(valueFlag, "--command"), specs(boolFlag, "-c", "--continue"),
	specs(valueFlag, "-s", "--session"), specs(boolFlag, "--fork"), specs(boolFlag, "--share"),
	specs(valueFlag, "-m", "--model"), specs(valueFlag, "--agent"), specs(valueFlag, "--format"),
	specs(arrayFlag, "-f", "--file"), specs(valueFlag, "--title"), specs(valueFlag, "--attach"),
	specs(valueFlag, "-p", "--password"), specs(valueFlag, "-u", "--username"), specs(valueFlag, "--dir"),
	specs(valueFlag, "--port"), specs(valueFlag, "--variant"), specs(boolFlag, "--thinking"),
	specs(boolFlag, "-i", "--interactive"), specs(boolFlag, "--auto", "--yolo", "--dangerously-skip-permissions"),
}

func opencode(args []string) int {
	if len(args) == 0 || args[0] != "run" {
		fmt.Fprintln(os.Stderr, "fake opencode: only `opencode run` is implemented")
		return 1
	}
	args = args[1:]
	f := parseFlags(args, opencodeFlags)
	if f.wrong != "" {
		fmt.Fprintln(os.Stderr, "opencode run [message..]\n\nrun opencode with a message\n\n(help text)")
		return 1
	}
	if fm := f.get("--format"); fm != "" && fm != "default" && fm != "json" {
		fmt.Fprintf(os.Stderr, "Invalid values:\n  Argument: format, Given: %q, Choices: \"default\", \"json\"\n", fm)
		return 1
	}
	if d := f.get("--dir"); d != "" {
		if err := os.Chdir(d); err != nil {
			fmt.Fprintf(os.Stderr, "Error: Failed to change directory to %s\n", d)
			return 1
		}
	}
	if f.has("--fork") && !f.has("-c") && !f.has("-s") {
		fmt.Fprintln(os.Stderr, "Error: --fork requires --continue or --session")
		return 1
	}
	stdin := readStdin()
	message := strings.TrimSpace(strings.Join(f.pos, " ") + "\n" + stdin)
	logCall(args, stdin)
	if message == "" {
		fmt.Fprintln(os.Stderr, "Error: You must provide a message or a command")
		return 1
	}
	session := "ses_" + strings.ReplaceAll(uuid(), "-", "")[:26]
	if id := f.get("-s"); id != "" {
		if !sessionKnown("opencode", id) {
			fmt.Fprint(os.Stderr, "\x1b[91m\x1b[1mError: \x1b[0mSession not found\n")
			return 1
		}
		session = id
	}
	rememberSession("opencode", session)
	if f.get("--format") != "json" {
		fmt.Fprintln(os.Stderr, "fake opencode: only --format json is implemented")
		return 1
	}
	switch scenario() {
	case "auth":
		replay(os.Stdout, "opencode_auth.jsonl")
		return 1
	case "ratelimit":
		replay(os.Stdout, "opencode_ratelimit.jsonl")
		return 1
	}
	ts := func() int64 { return time.Now().UnixMilli() }
	ev := func(typ string, part map[string]any) {
		emit(map[string]any{"type": typ, "timestamp": ts(), "sessionID": session, "part": part})
	}
	allowed := f.has("--auto") || strings.Contains(os.Getenv("OPENCODE_PERMISSION"), "allow")
	ev("step_start", map[string]any{"type": "step-start", "messageID": "msg_1"})
	switch scenario() {
	case "hang":
		hang()
	case "quota", "iserror":
		msg, status := "Insufficient balance or no resource package. Please recharge.", 402
		if scenario() == "iserror" {
			msg, status = "The model returned an invalid response", 500
		}
		emit(map[string]any{"type": "error", "timestamp": ts(), "sessionID": session,
			"error": map[string]any{"name": "APIError", "data": map[string]any{"message": msg, "statusCode": status, "isRetryable": false}}})
		return 1
	}
	if !allowed {
		// The real run auto-rejects the write and still exits 0.
		fmt.Fprintln(os.Stderr, "permission requested: edit ("+os.Getenv("FAKE_AGENT_WRITE")+"); auto-rejecting")
		ev("step_finish", map[string]any{"type": "step-finish", "reason": "stop", "cost": 0,
			"tokens": map[string]any{"input": 10, "output": 0, "reasoning": 0, "cache": map[string]any{"read": 0, "write": 0}}})
		return 0
	}
	ev("tool_use", map[string]any{"type": "tool", "tool": "write", "callID": "call_1",
		"state": map[string]any{"status": "completed", "input": map[string]any{"filePath": writePath()}, "output": ""}})
	ev("step_finish", map[string]any{"type": "step-finish", "reason": "tool-calls", "cost": 0.001,
		"tokens": map[string]any{"total": 8011, "input": 7952, "output": 35, "reasoning": 24, "cache": map[string]any{"read": 0, "write": 0}}})
	ev("step_start", map[string]any{"type": "step-start", "messageID": "msg_2"})
	text := "fake opencode answer: " + excerpt(message)
	ev("text", map[string]any{"type": "text", "text": text, "time": map[string]any{"start": ts(), "end": ts()}})
	if scenario() == "truncated" {
		return 0
	}
	if err := writeWorkspace(message); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ev("step_finish", map[string]any{"type": "step-finish", "reason": "stop", "cost": 0.002,
		"tokens": map[string]any{"total": 8113, "input": 397, "output": 16, "reasoning": 20, "cache": map[string]any{"read": 7680, "write": 0}}})
	return 0
}

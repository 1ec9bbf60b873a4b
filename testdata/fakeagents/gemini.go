package main

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// geminiFlags are gemini-cli 0.61.0's options (`gemini --help`); yargs
// runs in strict mode, so anything else is "Unknown argument", exit 1.
var geminiFlags = []flagSpec{
	specs(boolFlag, "-d", "--debug"), specs(valueFlag, "-m", "--model"), specs(valueFlag, "-p", "--prompt"),
	specs(valueFlag, "-i", "--prompt-interactive"), specs(boolFlag, "--skip-trust"),
	specs(valueFlag, "-w", "--worktree"), specs(boolFlag, "-s", "--sandbox"), specs(boolFlag, "-y", "--yolo"),
	specs(valueFlag, "--approval-mode"), specs(arrayFlag, "--policy"), specs(arrayFlag, "--admin-policy"),
	specs(boolFlag, "--acp"), specs(arrayFlag, "--allowed-mcp-server-names"), specs(arrayFlag, "--allowed-tools"),
	specs(arrayFlag, "-e", "--extensions"), specs(valueFlag, "-r", "--resume"), specs(valueFlag, "--session-file"),
	specs(valueFlag, "--session-id"), specs(boolFlag, "--list-sessions"), specs(arrayFlag, "--include-directories"),
	specs(valueFlag, "-o", "--output-format"), specs(boolFlag, "--raw-output"), specs(boolFlag, "--accept-raw-output-risk"),
}

func gemini(args []string) int {
	f := parseFlags(args, geminiFlags)
	if f.wrong != "" {
		fmt.Fprintf(os.Stderr, "Usage: gemini [options] [command]\n\nUnknown argument: %s\n", strings.TrimLeft(f.wrong, "-"))
		return 1
	}
	if m := f.get("--approval-mode"); m != "" && m != "default" && m != "auto_edit" && m != "yolo" && m != "plan" {
		fmt.Fprintf(os.Stderr, "Invalid values:\n  Argument: approval-mode, Given: %q, Choices: \"default\", \"auto_edit\", \"yolo\", \"plan\"\n", m)
		return 1
	}
	if !f.has("-p") {
		fmt.Fprintln(os.Stderr, "fake gemini: interactive mode is not supported")
		return 1
	}
	yolo := f.get("--approval-mode") == "yolo" || f.has("-y")
	if yolo {
		fmt.Fprintln(os.Stderr, "YOLO mode is enabled. All tool calls will be automatically approved.")
	}
	if !f.has("--skip-trust") && os.Getenv("GEMINI_CLI_TRUST_WORKSPACE") != "true" {
		fmt.Fprintln(os.Stderr, "Approval mode overridden to \"default\" because the current folder is not trusted.")
		fmt.Fprintln(os.Stderr, "Gemini CLI is not running in a trusted directory. To proceed, either use `--skip-trust`, set the `GEMINI_CLI_TRUST_WORKSPACE=true` environment variable, or trust this directory in interactive mode.")
		return 55
	}
	stdin := readStdin()
	prompt := strings.TrimSpace(stdin + "\n" + f.get("-p"))
	logCall(args, stdin)
	if f.get("-o") != "stream-json" {
		fmt.Fprintln(os.Stderr, "fake gemini: only --output-format stream-json is implemented")
		return 1
	}
	session := uuid()
	if id := f.get("-r"); id != "" {
		if !sessionKnown("gemini", id) {
			// Verified against gemini 0.61.0 with no earlier session.
			fmt.Fprintln(os.Stderr, "Error resuming session: No previous sessions found for this project.")
			return 42
		}
		session = id
	}
	switch scenario() {
	case "auth":
		replay(os.Stderr, "gemini_noauth.stderr")
		return 41
	case "badkey":
		replay(os.Stdout, "gemini_badkey.jsonl")
		return 144
	}
	rememberSession("gemini", session)
	model := f.get("-m")
	if model == "" {
		model = "auto"
	}
	now := func() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z") }
	emit(map[string]any{"type": "init", "timestamp": now(), "session_id": session, "model": model})
	emit(map[string]any{"type": "message", "timestamp": now(), "role": "user", "content": prompt})
	switch scenario() {
	case "hang":
		hang()
	case "ratelimit", "quota":
		msg := "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 10\nPlease retry in 20.5s."
		if scenario() == "quota" {
			msg = "Quota exceeded for quota metric 'Generate Content API requests per day' and limit 'GenerateContent request limit per day' of service 'generativelanguage.googleapis.com'. Check your plan and billing details."
		}
		fmt.Fprintf(os.Stderr, "Attempt 1 failed: %s. Retrying after 23510ms...\n", msg)
		emit(map[string]any{"type": "result", "timestamp": now(), "status": "error",
			"error": map[string]any{"type": "unknown", "message": "[API Error: " + msg + "]"}, "stats": geminiStats(model, 0)})
		return 1
	}
	if w := writePath(); w != "" {
		emit(map[string]any{"type": "tool_use", "timestamp": now(), "tool_name": "write_file", "tool_id": "t0",
			"parameters": map[string]any{"file_path": w, "content": "..."}})
		emit(map[string]any{"type": "tool_result", "timestamp": now(), "tool_id": "t0", "status": "success"})
	}
	text := "fake gemini answer: " + excerpt(prompt)
	emit(map[string]any{"type": "message", "timestamp": now(), "role": "assistant", "content": "I will search first.", "delta": true})
	emit(map[string]any{"type": "tool_use", "timestamp": now(), "tool_name": "google_web_search", "tool_id": "t1",
		"parameters": map[string]any{"query": "x"}})
	emit(map[string]any{"type": "tool_result", "timestamp": now(), "tool_id": "t1", "status": "success", "output": "ok"})
	emit(map[string]any{"type": "message", "timestamp": now(), "role": "assistant", "content": text[:10], "delta": true})
	emit(map[string]any{"type": "message", "timestamp": now(), "role": "assistant", "content": text[10:], "delta": true})
	switch scenario() {
	case "truncated":
		return 0
	case "iserror":
		emit(map[string]any{"type": "error", "timestamp": now(), "severity": "error", "message": "Loop detected, stopping execution"})
		emit(map[string]any{"type": "result", "timestamp": now(), "status": "error",
			"error": map[string]any{"type": "FatalTurnLimitedError", "message": "Reached max session turns for this session."}, "stats": geminiStats(model, 10)})
		return 53
	}
	if err := writeWorkspace(prompt); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	emit(map[string]any{"type": "result", "timestamp": now(), "status": "success", "stats": geminiStats(model, 1)})
	return 0
}

func geminiStats(model string, scale int) map[string]any {
	per := map[string]any{"total_tokens": 8410 * scale, "input_tokens": 8230 * scale, "output_tokens": 180 * scale,
		"cached": 2110 * scale, "input": 6120 * scale}
	return map[string]any{"total_tokens": 8410 * scale, "input_tokens": 8230 * scale, "output_tokens": 180 * scale,
		"cached": 2110 * scale, "input": 6120 * scale, "duration_ms": 1834, "tool_calls": scale,
		"models": map[string]any{model: per}}
}

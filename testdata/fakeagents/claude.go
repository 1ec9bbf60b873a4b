package main

import (
	"fmt"
	"os"
	"strings"
)

// claudeFlags are Claude Code 2.1.197's options (`claude --help`), with
// commander's arities: <values...> options swallow the following words.
var claudeFlags = []flagSpec{
	specs(boolFlag, "-p", "--print"), specs(valueFlag, "--output-format"), specs(boolFlag, "--verbose"),
	specs(valueFlag, "--input-format"), specs(boolFlag, "--include-partial-messages"),
	specs(boolFlag, "--include-hook-events"), specs(valueFlag, "--json-schema"),
	specs(valueFlag, "--model"), specs(valueFlag, "--fallback-model"), specs(valueFlag, "--effort"),
	specs(boolFlag, "--dangerously-skip-permissions"), specs(boolFlag, "--allow-dangerously-skip-permissions"),
	specs(valueFlag, "--permission-mode"), specs(variadicFlag, "--allowedTools", "--allowed-tools"),
	specs(variadicFlag, "--disallowedTools", "--disallowed-tools"), specs(variadicFlag, "--tools"),
	specs(variadicFlag, "--add-dir"), specs(valueFlag, "--max-budget-usd"),
	specs(valueFlag, "--system-prompt"), specs(valueFlag, "--append-system-prompt"),
	specs(valueFlag, "--settings"), specs(valueFlag, "--setting-sources"), specs(variadicFlag, "--mcp-config"),
	specs(boolFlag, "--strict-mcp-config"), specs(boolFlag, "-c", "--continue"),
	specs(optionalFlag, "-r", "--resume"), specs(valueFlag, "--session-id"), specs(boolFlag, "--fork-session"),
	specs(boolFlag, "--no-session-persistence"), specs(boolFlag, "--bare"), specs(boolFlag, "--safe-mode"),
	specs(optionalFlag, "-d", "--debug"), specs(valueFlag, "-n", "--name"),
}

func claude(args []string) int {
	f := parseFlags(args, claudeFlags)
	if f.wrong != "" {
		fmt.Fprintf(os.Stderr, "error: unknown option '%s'\n", f.wrong)
		return 1
	}
	if !f.has("-p") {
		fmt.Fprintln(os.Stderr, "fake claude: interactive mode is not supported")
		return 1
	}
	format := f.get("--output-format")
	if format == "stream-json" && !f.has("--verbose") {
		fmt.Fprintln(os.Stderr, "Error: When using --print, --output-format=stream-json requires --verbose")
		return 1
	}
	bypass := f.has("--dangerously-skip-permissions") || f.get("--permission-mode") == "bypassPermissions"
	if bypass && os.Geteuid() == 0 && os.Getenv("IS_SANDBOX") != "1" {
		fmt.Fprintln(os.Stderr, "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons")
		return 1
	}
	stdin := readStdin()
	prompt := strings.TrimSpace(strings.Join(append([]string{stdin}, f.pos...), "\n"))
	logCall(args, stdin)
	if prompt == "" {
		fmt.Fprintln(os.Stderr, "Error: Input must be provided either through stdin or as a prompt argument when using --print")
		return 1
	}
	session := uuid()
	if id := f.get("-r"); f.has("-r") {
		if !sessionKnown("claude", id) {
			emit(claudeResult(id, map[string]any{"subtype": "error_during_execution", "is_error": true,
				"num_turns": 0, "errors": []string{"No conversation found with session ID: " + id}}))
			fmt.Fprintln(os.Stderr, "No conversation found with session ID: "+id)
			return 1
		}
		session = id
	}
	rememberSession("claude", session)
	if format != "stream-json" {
		fmt.Fprintln(os.Stderr, "fake claude: only --output-format stream-json is implemented")
		return 1
	}
	switch scenario() {
	case "auth":
		replay(os.Stdout, "claude_notloggedin.jsonl")
		return 1
	case "badkey":
		replay(os.Stdout, "claude_auth_key.jsonl")
		return 1
	case "ratelimit":
		replay(os.Stdout, "claude_ratelimit.jsonl")
		return 1
	case "quota":
		replay(os.Stdout, "claude_billing.jsonl")
		return 1
	case "hang":
		emit(claudeInit(session, f.get("--model")))
		hang()
	case "leakkey":
		// A CLI that echoes the key it was given: the backend must redact it.
		emit(claudeResult(session, map[string]any{"subtype": "success", "is_error": true, "api_error_status": 401,
			"result": "Invalid API key " + os.Getenv("ANTHROPIC_API_KEY") + " · Fix external API key"}))
		return 1
	}
	emit(claudeInit(session, f.get("--model")))
	if w := writePath(); w != "" {
		emit(map[string]any{"type": "assistant", "session_id": session, "parent_tool_use_id": nil,
			"message": map[string]any{"model": "claude-opus-4-8", "role": "assistant", "type": "message",
				"content": []any{map[string]any{"type": "tool_use", "id": "toolu_01", "name": "Write",
					"input": map[string]any{"file_path": w, "content": "..."}}}}})
		emit(map[string]any{"type": "user", "session_id": session, "message": map[string]any{"role": "user",
			"content": []any{map[string]any{"tool_use_id": "toolu_01", "type": "tool_result", "content": "File created successfully at: " + w}}}})
	}
	text := "fake claude answer: " + excerpt(prompt)
	emit(map[string]any{"type": "assistant", "session_id": session, "parent_tool_use_id": nil,
		"message": map[string]any{"model": "claude-opus-4-8", "role": "assistant", "type": "message",
			"content": []any{map[string]any{"type": "text", "text": text}},
			"usage":   map[string]any{"input_tokens": 3, "output_tokens": 12, "cache_read_input_tokens": 100}}})
	switch scenario() {
	case "truncated":
		return 0
	case "iserror":
		emit(claudeResult(session, map[string]any{"subtype": "error_max_turns", "is_error": true,
			"num_turns": 31, "errors": []string{"Reached maximum number of turns (30)"}}))
		return 1
	}
	if err := writeWorkspace(prompt); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	emit(claudeResult(session, map[string]any{"subtype": "success", "is_error": false, "num_turns": 2,
		"result": text, "total_cost_usd": 0.0325, "stop_reason": "end_turn", "terminal_reason": "completed",
		"usage": map[string]any{"input_tokens": 1200, "output_tokens": 340, "cache_creation_input_tokens": 2521,
			"cache_read_input_tokens": 5015, "server_tool_use": map[string]any{"web_search_requests": 1, "web_fetch_requests": 0}},
		"modelUsage": map[string]any{"claude-opus-4-8": map[string]any{"inputTokens": 1200, "outputTokens": 340, "costUSD": 0.0325}}}))
	return 0
}

func claudeInit(session, model string) map[string]any {
	if model == "" {
		model = "claude-opus-4-8[1m]"
	}
	cwd, _ := os.Getwd()
	return map[string]any{"type": "system", "subtype": "init", "cwd": cwd, "session_id": session,
		"tools": []string{"Bash", "Edit", "Read", "WebFetch", "WebSearch", "Write"}, "model": model,
		"permissionMode": "acceptEdits", "apiKeySource": "none", "claude_code_version": "2.1.197", "uuid": uuid()}
}

func claudeResult(session string, fields map[string]any) map[string]any {
	r := map[string]any{"type": "result", "duration_ms": 7920, "duration_api_ms": 6100, "session_id": session,
		"total_cost_usd": 0, "uuid": uuid(), "permission_denials": []any{}}
	for k, v := range fields {
		r[k] = v
	}
	return r
}

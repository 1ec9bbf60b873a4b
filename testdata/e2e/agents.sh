# shellcheck shell=bash
# How each real CLI is pointed at the scripted model server. See README.md
# for the facts behind every variable and flag.

# agent_env AGENT HOMEDIR BASE KEY fills the array AGENT_ENV with the
# variables that point AGENT at BASE with KEY, writing any config file the
# CLI needs under HOMEDIR.
agent_env() {
	local agent=$1 h=$2 base=$3 key=$4
	mkdir -p "$h/tmp"
	# TMPDIR inside HOMEDIR: gemini writes error reports to the temp dir, and
	# codex refuses helper binaries when CODEX_HOME is under it.
	AGENT_ENV=(HOME="$h" TMPDIR="$h/tmp")
	case $agent in
	claude)
		AGENT_ENV+=(ANTHROPIC_BASE_URL="$base" ANTHROPIC_API_KEY="$key" CLAUDE_CONFIG_DIR="$h/claude"
			DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1)
		;;
	opencode)
		mkdir -p "$h/opencode"
		cat >"$h/opencode/opencode.json" <<-JSON
			{"\$schema": "https://opencode.ai/config.json",
			 "provider": {"rgite2e": {"npm": "@ai-sdk/openai-compatible", "name": "rgit e2e",
			   "options": {"baseURL": "$base/v1", "apiKey": "{env:RGIT_E2E_OPENCODE_KEY}"},
			   "models": {"scripted": {"name": "scripted", "tool_call": true}}}},
			 "model": "rgite2e/scripted", "autoupdate": false, "share": "disabled"}
		JSON
		AGENT_ENV+=(OPENCODE_CONFIG="$h/opencode/opencode.json" RGIT_E2E_OPENCODE_KEY="$key"
			XDG_CONFIG_HOME="$h/.config" XDG_DATA_HOME="$h/.local/share" XDG_CACHE_HOME="$h/.cache"
			XDG_STATE_HOME="$h/.local/state" OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_MODELS_FETCH=1)
		;;
	codex)
		mkdir -p "$h/codex"
		cat >"$h/codex/config.toml" <<-TOML
			model = "scripted"
			model_provider = "rgite2e"
			[model_providers.rgite2e]
			name = "rgit e2e"
			base_url = "$base/v1"
			env_key = "RGIT_E2E_CODEX_KEY"
			wire_api = "responses"
			request_max_retries = 0
			stream_max_retries = 0
		TOML
		AGENT_ENV+=(CODEX_HOME="$h/codex" RGIT_E2E_CODEX_KEY="$key")
		;;
	gemini)
		# GOOGLE_GEMINI_BASE_URL alone selects the "gateway" auth type, which
		# headless mode rejects (exit 41): select the API-key type in settings.
		mkdir -p "$h/gemini/.gemini"
		cat >"$h/gemini/.gemini/settings.json" <<-JSON
			{"security": {"auth": {"selectedType": "gemini-api-key"}},
			 "general": {"disableAutoUpdate": true}, "privacy": {"usageStatisticsEnabled": false},
			 "telemetry": {"enabled": false}}
		JSON
		AGENT_ENV+=(GEMINI_CLI_HOME="$h/gemini" GEMINI_API_KEY="$key" GOOGLE_GEMINI_BASE_URL="$base")
		;;
	openai)
		# rgit's own HTTP backend: no CLI, the same server's chat completions.
		AGENT_ENV+=(OPENAI_BASE_URL="$base/v1" OPENAI_API_KEY="$key")
		;;
	*) fail "unknown agent $agent" ;;
	esac
}

# agent_spec prints the --model value rgit gets for AGENT.
agent_spec() {
	case $1 in
	claude) echo claude:claude-sonnet-4-5 ;;
	opencode) echo opencode:rgite2e/scripted ;;
	codex) echo codex:scripted ;;
	gemini) echo gemini:gemini-2.5-pro ;;
	openai) echo openai:scripted ;;
	esac
}

# agent_path prints the URL path of the model calls AGENT makes.
agent_path() {
	case $1 in
	claude) echo /v1/messages ;;
	opencode) echo /v1/chat/completions ;;
	codex) echo /v1/responses ;;
	gemini) echo /v1beta/models/gemini-2.5-pro:streamGenerateContent ;;
	openai) echo /v1/chat/completions ;;
	esac
}

# agent_direct AGENT DIR PROMPT runs the CLI itself (no rgit) in DIR with
# the environment in AGENT_ENV, non-interactively and allowed to write.
agent_direct() {
	local agent=$1 dir=$2 prompt=$3 bin=$CACHE/node_modules/.bin
	(
		cd "$dir" || exit 1
		case $agent in
		claude) run_env timeout 300 "$bin/claude" -p --output-format stream-json --verbose \
			--permission-mode acceptEdits -- "$prompt" ;;
		opencode) printf '%s\n' "$prompt" | run_env timeout 300 "$bin/opencode" run --format json --pure \
			--auto --title rgit-e2e --dir "$dir" -m rgite2e/scripted ;;
		codex) run_env timeout 300 "$bin/codex" exec --json --skip-git-repo-check \
			--sandbox workspace-write -C "$dir" "$prompt" </dev/null ;;
		gemini) run_env timeout 300 "$bin/gemini" -p "$prompt" -o stream-json -m gemini-2.5-pro \
			--approval-mode yolo --skip-trust </dev/null ;;
		esac
	)
}

# run_env runs a command with only the base environment and AGENT_ENV, so
# that no key or config of the machine's own user reaches the CLIs.
run_env() {
	env -i PATH="$CACHE/node_modules/.bin:$SYS_PATH" LANG=C.UTF-8 TERM=dumb CI=true \
		GIT_AUTHOR_NAME="rgit e2e" GIT_AUTHOR_EMAIL=e2e@rgit.invalid \
		GIT_COMMITTER_NAME="rgit e2e" GIT_COMMITTER_EMAIL=e2e@rgit.invalid \
		"${AGENT_ENV[@]}" "$@"
}

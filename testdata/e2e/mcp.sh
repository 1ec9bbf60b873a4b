#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# The REAL Claude Code, Codex and Gemini CLIs (pinned in versions.txt,
# installed from npm as run.sh does) calling `rgit mcp`, registered the way
# `rgit integrate` writes it, against the scripted model server. The server
# plays a model that calls research_start (a mock session of "How do tides
# work?", breadth 1, depth 0), research_status until it is done and
# research_report, then answers quoting the report's title
# (testdata/modelserver/mcp.go).
#
# Registration, per CLI, in its isolated config (agents.sh):
#   claude  rgit integrate claude --user   ($CLAUDE_CONFIG_DIR/.claude.json and the plugin; the
#                                          prompt is the plugin's /rgit:deep-research, whose
#                                          allowed-tools alone let the tools run)
#   codex   rgit integrate codex --user    (merged into $CODEX_HOME/config.toml)
#   gemini  rgit integrate gemini --user   (merged into $GEMINI_CLI_HOME/.gemini/settings.json;
#                                          run without --approval-mode yolo: "trust" must do)
# (A project-scope Claude Code plugin loads only in a folder the user has
# trusted, which print mode never asks; its .mcp.json works either way.)
# A denied tool still exits 0, so the checks read the server's log: the
# call it answered, and the tool's result in the next request.
#
# Each CLI passes when the session's branch holds a complete mock session
# (research_start ran it detached), the script reached research_report, and
# the final answer quotes the report's title. RGIT_E2E_MCP_EXPECT=report is
# the only expectation (the default).
# Also: RGIT_E2E_CACHE, RGIT_E2E_BIN and RGIT_E2E_KEEP as in run.sh, and
# RGIT_E2E_MCP_AGENTS (default: claude codex gemini).
set -euo pipefail

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$E2E_DIR/../.." && pwd)
CACHE=${RGIT_E2E_CACHE:-$HOME/.cache/rgit-e2e}
AGENTS=${RGIT_E2E_MCP_AGENTS-claude codex gemini}
EXPECT=${RGIT_E2E_MCP_EXPECT:-report}
SYS_PATH=$PATH
BIN=${RGIT_E2E_BIN:-$ROOT/bin}
TITLE="Research Report: How do tides work?"
SESSION=how-do-tides-work

# shellcheck source=lib.sh
source "$E2E_DIR/lib.sh"
# shellcheck source=agents.sh
source "$E2E_DIR/agents.sh"
# shellcheck source=check.sh
source "$E2E_DIR/check.sh"

scratch_dir -mcp

[[ $EXPECT == report ]] || { fail "RGIT_E2E_MCP_EXPECT must be report, got '$EXPECT'"; exit 2; }

install_clis
check_versions
build_bins
KEY=$(new_key)

# mcp_tool AGENT NAME prints the name AGENT's model calls rgit's tool by.
mcp_tool() {
	case $1 in
	claude) echo "mcp__rgit__$2" ;;
	codex) echo "$2" ;; # inside the namespace tool mcp__rgit
	gemini) echo "mcp_rgit_$2" ;;
	esac
}

# register AGENT REPO writes the registration with rgit integrate.
register() {
	local agent=$1 repo=$2 scope=--user
	# Codex passes its MCP servers HOME but not GIT_*: the session's commits
	# need an identity from the isolated HOME's git config.
	git config --file "$WORK/$agent/home/.gitconfig" user.name "rgit e2e"
	git config --file "$WORK/$agent/home/.gitconfig" user.email e2e@rgit.invalid
	(cd "$repo" && run_env "$BIN/rgit" integrate "$agent" "$scope") >"$WORK/$agent/integrate.out" 2>&1 ||
		{ cat "$WORK/$agent/integrate.out"; fail "$agent: rgit integrate $agent $scope failed"; return 1; }
}

# ask AGENT REPO runs the CLI non-interactively in REPO.
ask() {
	local agent=$1 repo=$2 bin=$CACHE/node_modules/.bin prompt="Use rgit to research: How do tides work?"
	(
		cd "$repo" || exit 1
		case $agent in
		claude) run_env timeout 420 "$bin/claude" -p --output-format stream-json --verbose \
			-- "/rgit:deep-research --test How do tides work?" </dev/null ;;
		codex) run_env timeout 420 "$bin/codex" exec --json --skip-git-repo-check \
			--sandbox workspace-write -C "$repo" "$prompt" </dev/null ;;
		gemini) run_env timeout 420 "$bin/gemini" -p "$prompt" -o stream-json -m gemini-2.5-pro \
			--skip-trust </dev/null ;;
		esac
	)
}

# check_mcp AGENT REPO OUT LOG: what the server saw and the CLI answered.
check_mcp() {
	local agent=$1 repo=$2 out=$3 slog=$4 bad=0
	grep '"mcp":"start"' "$slog" | grep -c "\"answer\":\"tool:$(mcp_tool "$agent" research_start)\"" >/dev/null ||
		{ tail -5 "$slog"; fail "$agent: the server never called $(mcp_tool "$agent" research_start)"; return 1; }
	grep -q '"mcp":"report"' "$slog" || { fail "$agent: the script never reached research_report"; bad=1; }
	grep -q "\"mcp\":\"answer\".*$TITLE" "$slog" || { fail "$agent: research_report's result did not carry the title"; bad=1; }
	grep -q "$TITLE" "$out" || { tail -5 "$out"; fail "$agent: the final answer does not quote '$TITLE'"; bad=1; }
	local phases
	phases=$(git -C "$repo" log --format='%(trailers:key=Rgit-Phase,valueonly)' "research/$SESSION" 2>/dev/null | sort -u | xargs)
	for p in plan research review synthesize final-review complete; do
		[[ " $phases " == *" $p "* ]] || { fail "$agent: no $p commit on research/$SESSION (saw: $phases)"; bad=1; }
	done
	check_no_key "$agent" "$repo" "$out" "$KEY" || bad=1
	return $bad
}

declare -A RESULT
for agent in $AGENTS; do
	say "== $agent (expect: $EXPECT)"
	RESULT[$agent]=fail
	mkdir -p "$WORK/$agent"
	repo=$WORK/$agent/repo
	scratch_repo "$repo"
	start_server "$WORK/$agent/server.jsonl"
	agent_env "$agent" "$WORK/$agent/home" "$BASE" "$KEY"
	if register "$agent" "$repo"; then
		rc=0
		ask "$agent" "$repo" >"$WORK/$agent/mcp.out" 2>&1 || rc=$?
		((rc == 0)) || say "$agent: the CLI exited $rc"
		check_mcp "$agent" "$repo" "$WORK/$agent/mcp.out" "$WORK/$agent/server.jsonl" && RESULT[$agent]=pass
	fi
	stop_server
	say "$agent: ${RESULT[$agent]}"
done

failed=0
for agent in $AGENTS; do
	[[ ${RESULT[$agent]} == pass ]] || failed=1
done
printf 'e2e mcp: %s\n' "$(for a in $AGENTS; do printf '%s %s; ' "$a" "${RESULT[$a]}"; done)"
exit $failed

#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# make e2e: drives the REAL agent CLIs (pinned in versions.txt, installed
# from the npm registry) against a local scripted model server
# (testdata/modelserver) and checks, with git, the research sessions rgit runs
# through them. README.md has the facts behind every setting.
#
# For each agent: a fresh server on a loopback port, then
#   1. direct: the CLI alone writes a plan file through its own write tool
#      (proves the CLI <-> server half, independent of rgit), then
#   2. session: `rgit research` (breadth 1, depth 1) through that CLI in a
#      scratch repo, to a report merged into main; check.sh checks it.
#
# Environment:
#   RGIT_E2E_CACHE     where the CLIs are installed (default ~/.cache/rgit-e2e)
#   RGIT_E2E_AGENTS    agents to run (default: claude opencode codex gemini openai,
#                      openai being rgit's own HTTP backend; empty: only the
#                      self-test of the checks)
#   RGIT_E2E_REQUIRED  agents whose failure fails the run (default: all five)
#   RGIT_E2E_BIN       directory with prebuilt rgit and modelserver binaries
#                      (default: build both into bin/ from this checkout)
#   RGIT_E2E_KEEP=1    keep the scratch directory even when everything passed
set -euo pipefail

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$E2E_DIR/../.." && pwd)
CACHE=${RGIT_E2E_CACHE:-$HOME/.cache/rgit-e2e}
AGENTS=${RGIT_E2E_AGENTS-claude opencode codex gemini openai}
REQUIRED=${RGIT_E2E_REQUIRED-claude opencode codex gemini openai}
SYS_PATH=$PATH
BIN=${RGIT_E2E_BIN:-$ROOT/bin}
QUESTION="Why is the sky blue?"

# shellcheck source=lib.sh
source "$E2E_DIR/lib.sh"
# shellcheck source=agents.sh
source "$E2E_DIR/agents.sh"
# shellcheck source=check.sh
source "$E2E_DIR/check.sh"
# shellcheck source=selftest.sh
source "$E2E_DIR/selftest.sh"

scratch_dir ''

command -v git >/dev/null || { fail "git not found"; exit 1; }
selftest
[[ -n ${AGENTS// /} ]] || { say "no agents to run"; exit 0; }
if [[ " $AGENTS " =~ \ (claude|opencode|codex|gemini)\  ]]; then
	install_clis
	check_versions
fi

build_bins

# A key value no real service knows, fresh each run, so that finding it
# anywhere in a repository or in rgit's output is a real leak.
KEY=$(new_key)

# direct_check AGENT: the CLI alone, prompted like rgit's plan phase.
direct_check() {
	local agent=$1 dir=$WORK/$1/direct out
	[[ $agent != openai ]] || return 0 # rgit's own backend: there is no CLI
	mkdir -p "$dir"
	out=$dir/research_plan.md
	agent_direct "$agent" "$dir" "Question: $QUESTION
Write your output to: $out" >"$WORK/$agent/direct.out" 2>&1 ||
		{ tail -20 "$WORK/$agent/direct.out"; fail "$agent: the CLI exited non-zero against the server"; return 1; }
	grep -q '(Depth: 0)' "$out" 2>/dev/null ||
		{ tail -20 "$WORK/$agent/direct.out"; fail "$agent: the CLI did not write $out through its tool"; return 1; }
	say "$agent: direct: the CLI wrote the plan through its own write tool"
}

# session_check AGENT: a small rgit session through the CLI, checked with git.
session_check() {
	local agent=$1 repo=$WORK/$1/repo name=e2e-$1 out=$WORK/$1/rgit.out rc=0
	scratch_repo "$repo" readme
	(cd "$repo" && run_env timeout 1200 "$BIN/rgit" research --name "$name" --breadth 1 --depth 1 --yes \
		--timeout 300 --model "$(agent_spec "$agent")" --review-model "$(agent_spec "$agent")" \
		"$QUESTION" </dev/null >"$out" 2>&1) || rc=$?
	if ((rc != 0)); then
		tail -30 "$out"
		fail "$agent: rgit research exited $rc"
		check_no_key "$agent" "$repo" "$out" "$KEY" || true
		return 1
	fi
	check_session "$agent" "$repo" "$name" "$out" "$WORK/$agent/server.jsonl" "$KEY" || return 1
	say "$agent: session: report merged into main, history and trailers check out, no key leaked"
}

declare -A RESULT
for agent in $AGENTS; do
	say "== $agent"
	mkdir -p "$WORK/$agent"
	RESULT[$agent]=fail
	# Each half gets its own server, so the session's request log holds only
	# what rgit caused.
	start_server "$WORK/$agent/direct.jsonl"
	agent_env "$agent" "$WORK/$agent/home" "$BASE" "$KEY"
	direct_check "$agent" || { stop_server; continue; }
	stop_server
	start_server "$WORK/$agent/server.jsonl"
	agent_env "$agent" "$WORK/$agent/home" "$BASE" "$KEY"
	session_check "$agent" && RESULT[$agent]=pass
	stop_server
done

failed=0 npass=0 nfail=0
for agent in $AGENTS; do
	req=optional
	[[ " $REQUIRED " == *" $agent "* ]] && req=required
	say "result: $agent ${RESULT[$agent]} ($req)"
	if [[ ${RESULT[$agent]} == pass ]]; then
		npass=$((npass + 1))
	else
		nfail=$((nfail + 1))
		[[ $req == optional ]] || failed=1
	fi
done
# The plain closing line CI reads: agents whose whole session passed.
printf 'e2e: %d passed, %d failed\n' "$npass" "$nfail"
((failed == 0)) || { fail "a required agent failed"; exit 1; }

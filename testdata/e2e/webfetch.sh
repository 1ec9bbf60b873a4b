#!/usr/bin/env bash
# The citation gate with the real Claude Code CLI (issue 16): the scripted
# model server names a loopback page and has the research call fetch it
# with Claude Code's own WebFetch tool, and also cite a page nobody
# fetched. rgit must record the fetched page under sources/ (URL and the
# text the agent saw) in the research commit, and catch the unfetched
# citation: the retry names it, and the progress file keeps it marked
# unverified. A denied tool still exits 0, so every check looks at the
# effect: the server's log, the records, the commits.
# Same cache and knobs as run.sh (RGIT_E2E_CACHE, RGIT_E2E_BIN, RGIT_E2E_KEEP).
set -euo pipefail

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$E2E_DIR/../.." && pwd)
CACHE=${RGIT_E2E_CACHE:-$HOME/.cache/rgit-e2e}
SYS_PATH=$PATH
BIN=${RGIT_E2E_BIN:-$ROOT/bin}

source "$E2E_DIR/lib.sh"
source "$E2E_DIR/agents.sh"

scratch_dir -webfetch

install_clis
build_bins

KEY=$(new_key)
repo=$WORK/repo name=e2e-webfetch out=$WORK/rgit.out log=$WORK/server.jsonl
start_server "$log" -webfetch -ca-file "$log.ca.pem"
agent_env claude "$WORK/home" "$BASE" "$KEY"
# WebFetch upgrades http:// to https://: the server serves the page over
# TLS with its own certificate, which the CLI trusts through this variable.
AGENT_ENV+=(NODE_EXTRA_CA_CERTS="$log.ca.pem")
# Claude Code asks claude.ai whether a domain is safe before WebFetch;
# offline that fails, so the preflight is skipped in the run's own config.
mkdir -p "$WORK/home/claude"
printf '{"skipWebFetchPreflight": true}\n' >"$WORK/home/claude/settings.json"

scratch_repo "$repo" readme
rc=0
(cd "$repo" && run_env timeout 300 "$BIN/rgit" research --name "$name" --breadth 1 --depth 0 --yes \
	--max-fix-attempts 1 --timeout 120 --model claude:claude-sonnet-4-5 --review-model claude:claude-sonnet-4-5 \
	"How do tides work?" </dev/null >"$out" 2>&1) || rc=$?
if ((rc != 0)); then
	tail -30 "$out"
	fail "rgit research exited $rc"
	exit 1
fi
branch=research/$name
page=$(grep -o 'https://127.0.0.1:[0-9]*/pages/tides' "$out" | head -1 || true)
[[ -n $page ]] || page=$(git -C "$repo" log -p "$branch" | grep -o 'https://127.0.0.1:[0-9]*/pages/tides' | head -1 || true)
[[ -n $page ]] || { fail "no research output cites the page"; exit 1; }
unfetched=${page%/tides}/never-fetched

# The server saw Claude Code fetch the page.
grep -q '"path":"/pages/tides"' "$log" || { fail "the server never saw a GET of /pages/tides: WebFetch did not run"; exit 1; }
say "webfetch: Claude Code fetched $page through WebFetch"

# The fetch is a record under sources/ with the page's text, in the
# research commit; the unfetched page has none.
records=$(git -C "$repo" ls-tree -r --name-only "$branch" -- ".research/$name/sources/")
[[ -n $records ]] || { fail "no source record under .research/$name/sources/"; exit 1; }
found=
for f in $records; do
	body=$(git -C "$repo" show "$branch:$f")
	[[ $(head -1 <<<"$body") == "URL: $page" ]] && found=$f
	[[ $body != *"URL: $unfetched"* ]] || { fail "$f records the page nobody fetched"; exit 1; }
done
[[ -n $found ]] || { fail "no record of $page: $records"; exit 1; }
git -C "$repo" show "$branch:$found" | grep -c 'two tidal bulges' >/dev/null ||
	{ git -C "$repo" show "$branch:$found" | head -20; fail "the record of $page lacks the text the agent saw"; exit 1; }
git -C "$repo" log --format=%B --name-only "$branch" | grep -c "^.research/$name/sources/" >/dev/null ||
	{ fail "no commit added the record"; exit 1; }
say "webfetch: $found records the page and its text"

# The unfetched citation was caught: the retry named it, and the progress
# file in history keeps it marked unverified.
grep -q "citation Source 2 $unfetched was never fetched" "$out" ||
	{ tail -30 "$out"; fail "rgit did not report the unfetched citation"; exit 1; }
git -C "$repo" log -p "$branch" -- ".research/$name/progress/" | grep -c "$unfetched \*(unverified)\*" >/dev/null ||
	{ fail "the progress file does not mark the unfetched citation unverified"; exit 1; }
say "webfetch: the citation of $unfetched was caught and marked unverified"

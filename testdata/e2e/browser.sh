#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# Browser check of rgit's HTML report page (phases/report.RenderHTML) in a
# real headless Chromium (Debian's `chromium` package, installed here when
# missing). For each sample page (the kitchen and sync-local fixtures of
# phases/report/testdata/sessions, written by ./reportpage, and the page
# `rgit show --html` writes for a mock session rgit runs here):
#
#   1. load it with the browser's own logging on: no console message (a
#      CSP violation or a script error is one; the page has no script) and,
#      in the NetLog, no network request started by the page;
#   2. screenshots at 1280x900 and 375x800 that exist and are not blank;
#   3. the topic tree visible at both sizes: a copy of the page with a
#      probe script (the real page's CSP would block it) checks that the
#      tree element is laid out, shown, inside the first screen, and has
#      topics.
#
# First a self-test proves the checks can fail: a page with a console
# error and an image from 127.0.0.1:9 (nothing listens there) must trip
# the console and network checks, and a page whose tree is hidden must
# trip the visibility probe.
#
# Environment: RGIT_E2E_KEEP=1 keeps the scratch directory (screenshots,
# logs); RGIT_BROWSER=path picks the browser binary (default: chromium).
set -euo pipefail

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$E2E_DIR/../.." && pwd)
# shellcheck source=lib.sh
source "$E2E_DIR/lib.sh"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/rgit-browser.XXXXXX")
cleanup() {
	local rc=$?
	if ((rc == 0)) && [[ -z ${RGIT_E2E_KEEP:-} ]]; then
		rm -rf "$WORK"
	else
		say "browser: scratch kept in $WORK"
	fi
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

BROWSER=${RGIT_BROWSER:-chromium}

install_browser() {
	command -v "$BROWSER" >/dev/null && return 0
	[[ $BROWSER == chromium ]] || fail "browser $BROWSER not found" || return 1
	local sudo=
	if ((EUID != 0)); then
		command -v sudo >/dev/null || fail "chromium is missing and installing it needs root: apt-get install chromium" || return 1
		sudo=sudo
	fi
	say "browser: installing Debian's chromium"
	if ! { $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >"$WORK/apt.log" 2>&1; then
		cat "$WORK/apt.log" >&2
		fail "apt-get install chromium failed" || return 1
	fi
}

# The browser makes no request of its own that leaves this machine: every
# host name fails to resolve (IP literals such as the self-test's
# 127.0.0.1 still connect, so the page's own requests stay visible).
FLAGS=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
	--disable-background-networking --disable-component-update --disable-sync
	--disable-extensions --disable-default-apps --no-pings --disable-domain-reliability
	--host-resolver-rules='MAP * ~NOTFOUND' --hide-scrollbars)

# browse ARGS...: one headless run with a fresh profile, bounded in time.
browse() {
	timeout 120 "$BROWSER" "${FLAGS[@]}" --user-data-dir="$(mktemp -d "$WORK/profile.XXXXXX")" "$@"
}

# load_checks PAGE DIR: console messages and the page's network requests.
# Prints what it found; fails when it found any.
load_checks() {
	local page=$1 dir=$2 bad=0
	mkdir -p "$dir"
	browse --enable-logging=stderr --v=1 --log-net-log="$dir/net.json" --dump-dom "file://$page" \
		>"$dir/dom.html" 2>"$dir/browser.log" || fail "browser failed on $page (log: $dir/browser.log)" || return 1
	if grep -E ':CONSOLE[:(]' "$dir/browser.log" >"$dir/console.txt"; then
		sed 's/^/    /' "$dir/console.txt"
		bad=1
	fi
	"$WORK/reportpage" -netlog "$dir/net.json" | sed 's/^/    /' || bad=1
	((bad == 0))
}

# shots PAGE DIR: screenshots at desktop and phone sizes, each a real
# picture (a blank page compresses to a few hundred bytes).
shots() {
	local page=$1 dir=$2 size file bytes
	for size in 1280,900 375,800; do
		file="$dir/shot-${size/,/x}.png"
		browse --screenshot="$file" --window-size="$size" "file://$page" >/dev/null 2>>"$dir/shots.log" ||
			fail "screenshot $size of $page failed" || return 1
		bytes=$(wc -c <"$file")
		((bytes > 10000)) || fail "screenshot $file is $bytes bytes: blank?" || return 1
	done
}

# The probe sets data-tree-visible on <body> to yes or no. (No "&" in it:
# bash's pattern substitution would read it as the matched text.)
PROBE='<script>
var t = document.getElementById("rgit-topic-tree"), ok = false;
if (t) {
  var r = t.getBoundingClientRect(), s = getComputedStyle(t);
  ok = [r.width > 0, r.height > 0, r.top < innerHeight, r.bottom > 0, s.display !== "none",
    s.visibility !== "hidden", t.querySelectorAll("li.topic").length > 0].every(Boolean);
}
document.body.setAttribute("data-tree-visible", ok ? "yes" : "no");
</script>'

# tree_visible PAGE DIR: the probe copy reports the tree visible in the
# first screen at both sizes.
tree_visible() {
	local page=$1 dir=$2 html size out
	html=$(grep -v 'http-equiv="Content-Security-Policy"' "$page")
	printf '%s\n' "${html/<\/body>/$PROBE</body>}" >"$dir/probe.html"
	for size in 1280,900 375,800; do
		out="$dir/probe-${size/,/x}.html"
		browse --window-size="$size" --dump-dom "file://$dir/probe.html" >"$out" 2>/dev/null ||
			fail "probe of $page failed" || return 1
		grep -q 'data-tree-visible="yes"' "$out" || fail "topic tree not visible at $size in $page" || return 1
	done
}

selftest() {
	local dir=$WORK/selftest
	mkdir -p "$dir"
	cat >"$dir/bad.html" <<-'EOF'
		<!DOCTYPE html><html><head><title>bad</title></head><body>
		<nav id="rgit-topic-tree" style="display:none"><ul><li class="topic">t</li></ul></nav>
		<img src="http://127.0.0.1:9/pixel.png" alt="">
		<script>console.error("rgit-browser-selftest");</script>
		</body></html>
	EOF
	if load_checks "$dir/bad.html" "$dir/load" >"$dir/load.out"; then
		fail "self-test: a console error and a request went unnoticed" || return 1
	fi
	grep -q 'rgit-browser-selftest' "$dir/load.out" || fail "self-test: console error not seen" || return 1
	grep -q 'page request: http://127.0.0.1:9/pixel.png' "$dir/load.out" || fail "self-test: request not seen" || return 1
	if tree_visible "$dir/bad.html" "$dir" 2>/dev/null; then
		fail "self-test: a hidden tree passed as visible" || return 1
	fi
	grep -q 'data-tree-visible="no"' "$dir/probe-1280x900.html" || fail "self-test: the probe did not run" || return 1
	say "browser: self-test ok (console error, request and hidden tree all caught)"
}

# check_page NAME PAGE: the load, screenshot and visibility checks of one page.
check_page() {
	local name=$1 page=$2 dir=$WORK/$1
	mkdir -p "$dir"
	load_checks "$page" "$dir/load" || fail "$name: the page logged to the console or made a request" || return 1
	shots "$page" "$dir" || return 1
	tree_visible "$page" "$dir" || return 1
	say "browser: $name ok: no console message, no request, screenshots $(wc -c <"$dir/shot-1280x900.png") and $(wc -c <"$dir/shot-375x800.png") bytes, tree visible"
}

# session_page PAGE: the page of a real session, as a user gets it: a mock
# session (breadth 2, depth 1) run by rgit in a scratch repository, then
# `rgit show --html`.
session_page() {
	local page=$1 repo=$WORK/session/repo
	scratch_repo "$repo"
	(cd "$repo" && GIT_AUTHOR_NAME=e2e GIT_AUTHOR_EMAIL=e2e@rgit.invalid GIT_COMMITTER_NAME=e2e GIT_COMMITTER_EMAIL=e2e@rgit.invalid \
		"$WORK/rgit" research --mock-mode --breadth 2 --depth 1 --name tides "How do tides work?" </dev/null >"$WORK/session/research.log" 2>&1) ||
		{ tail -20 "$WORK/session/research.log"; fail "rgit research (mock) failed"; return 1; }
	(cd "$repo" && "$WORK/rgit" show --name tides --html "$page" >/dev/null) || fail "rgit show --html failed" || return 1
	grep -q 'id="rgit-topic-tree"' "$page" || fail "rgit show --html wrote no topic tree" || return 1
}

install_browser
say "browser: $("$BROWSER" --version 2>/dev/null | tail -1)"
(cd "$ROOT" && go build -o "$WORK/reportpage" ./testdata/e2e/reportpage && go build -o "$WORK/rgit" ./cmd/rgit)
selftest
for session in kitchen sync-local; do
	mkdir -p "$WORK/$session"
	(cd "$ROOT" && "$WORK/reportpage" -session "$session" -o "$WORK/$session/page.html")
	check_page "$session" "$WORK/$session/page.html" || exit 1
done
session_page "$WORK/session/page.html" || exit 1
check_page rgit-show "$WORK/session/page.html" || exit 1

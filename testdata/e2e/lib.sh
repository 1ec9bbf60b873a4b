# shellcheck shell=bash
# Helpers for run.sh: logging, the pinned CLI install, the model server.

say()  { printf 'e2e [%3ds]: %s\n' "$SECONDS" "$*"; }
fail() { printf 'e2e: FAIL: %s\n' "$*" >&2; return 1; }

# pinned prints the package@version lines of versions.txt.
pinned() { grep -v -e '^#' -e '^[[:space:]]*$' "$E2E_DIR/versions.txt"; }

# install_clis installs the pinned CLIs into $CACHE, or reuses an earlier
# install of exactly the same list (a stamp file records it).
install_clis() {
	local want stamp="$CACHE/.rgit-e2e-installed"
	want=$(pinned)
	if [[ -f $stamp && $(cat "$stamp") == "$want" ]] && all_bins_present; then
		say "CLIs: reusing $CACHE"
		return 0
	fi
	command -v npm >/dev/null || fail "npm not found: install Node.js 20+ and npm" || return 1
	mkdir -p "$CACHE"
	say "CLIs: installing into $CACHE: ${want//$'\n'/ }"
	# Platform binaries (claude, opencode, codex) come as optional deps, so
	# optional deps must not be omitted.
	# shellcheck disable=SC2086
	if ! npm install --prefix "$CACHE" --no-audit --no-fund --save-exact --include=optional \
		--loglevel=error $want >"$CACHE/npm-install.log" 2>&1; then
		cat "$CACHE/npm-install.log" >&2
		fail "npm install of the pinned CLIs failed" || return 1
	fi
	all_bins_present || fail "npm install left a CLI missing under $CACHE/node_modules/.bin" || return 1
	printf '%s\n' "$want" >"$stamp"
}

all_bins_present() {
	local b
	for b in claude opencode codex gemini; do
		[[ -x $CACHE/node_modules/.bin/$b ]] || return 1
	done
}

# check_versions makes sure each installed CLI runs and is the pinned one
# (a postinstall step that did not run leaves a stub that fails here).
check_versions() {
	local line pkg ver bin got
	while read -r line; do
		pkg=${line%@*} ver=${line##*@}
		case $pkg in
		@anthropic-ai/claude-code) bin=claude ;;
		opencode-ai) bin=opencode ;;
		@openai/codex) bin=codex ;;
		@google/gemini-cli) bin=gemini ;;
		*) continue ;;
		esac
		got=$(HOME=$WORK/home-version timeout 60 "$CACHE/node_modules/.bin/$bin" --version </dev/null 2>&1 | tail -1) ||
			fail "$bin --version failed: $got" || return 1
		[[ $got == *"$ver"* ]] || fail "$bin --version says '$got', want $ver" || return 1
		say "CLIs: $bin $ver ok"
	done < <(pinned)
}

# start_server LOG [FLAG...] starts bin/modelserver on a free loopback port
# for one agent, with any further flags, and sets BASE and SERVER_PID. Its
# request log goes to LOG.
start_server() {
	local log=$1 addr=$1.addr i
	rm -f "$addr"
	"$BIN/modelserver" -addr 127.0.0.1:0 -addr-file "$addr" -log "$log" -exit-after 15m "${@:2}" \
		</dev/null >"$log.out" 2>&1 &
	SERVER_PID=$!
	for ((i = 0; i < 100; i++)); do
		[[ -s $addr ]] && break
		kill -0 "$SERVER_PID" 2>/dev/null || { cat "$log.out" >&2; fail "modelserver exited"; return 1; }
		sleep 0.1
	done
	[[ -s $addr ]] || fail "modelserver wrote no address file" || return 1
	# shellcheck disable=SC2034 # read by run.sh
	BASE=$(cat "$addr")
}

stop_server() {
	if [[ -n ${SERVER_PID:-} ]]; then
		kill "$SERVER_PID" 2>/dev/null || true
		wait "$SERVER_PID" 2>/dev/null || true
		SERVER_PID=
	fi
}

# scratch_dir KIND: a fresh scratch directory as WORK, and the traps that
# stop the model server and remove WORK when the script succeeds (it is
# kept on failure, or always with RGIT_E2E_KEEP).
scratch_dir() {
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/rgit-e2e$1.XXXXXX")
	SERVER_PID=
	trap scratch_cleanup EXIT
	trap 'exit 130' INT TERM
}

# shellcheck disable=SC2317 # run by the EXIT trap
scratch_cleanup() {
	local rc=$?
	stop_server
	if ((rc == 0)) && [[ -z ${RGIT_E2E_KEEP:-} ]]; then
		rm -rf "$WORK"
	else
		say "scratch kept in $WORK"
	fi
	exit "$rc"
}

# new_key: a fresh fake API key for one run; the checks look for it in
# every output, commit and log.
new_key() { printf 'sk-rgit-e2e-%s' "$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"; }

# scratch_repo DIR [readme]: a new repository at DIR on main with one
# commit, holding a README.md when a second argument is given, else empty.
scratch_repo() {
	local commit=(git -C "$1" -c user.name=e2e -c user.email=e2e@rgit.invalid commit -q -m "initial commit")
	mkdir -p "$1"
	git -C "$1" init -q -b main
	if [[ -n ${2:-} ]]; then
		printf '# scratch\n' >"$1/README.md"
		git -C "$1" add README.md
		"${commit[@]}"
	else
		"${commit[@]}" --allow-empty
	fi
}

# build_bins: rgit and the model server into BIN, unless RGIT_E2E_BIN
# names ones already built.
build_bins() {
	if [[ -z ${RGIT_E2E_BIN:-} ]]; then
		say "building bin/rgit and bin/modelserver"
		(cd "$ROOT" && go build -o "$BIN/rgit" ./cmd/rgit && go build -o "$BIN/modelserver" ./testdata/modelserver/cmd/modelserver)
	fi
}

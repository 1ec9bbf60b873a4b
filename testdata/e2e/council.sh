#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# A council (seed 000) of the REAL Claude Code, Codex and Gemini CLIs
# (pinned in versions.txt, installed from npm as run.sh does) against one
# local scripted model server (testdata/modelserver), which recognises the
# council's prompts: a member's report (complete at once), the refinement,
# the anonymized ranking and the eight-section synthesis.
#
# One `rgit research --council claude:...,codex:...,gemini:... --jobs 3`
# in a scratch repository, then, all through git and the logs:
#   - the members ran in parallel: progress.log shows all three members'
#     research starting before any member's first research commit;
#   - all three member branches advanced: a member-research, a refine and a
#     rank commit each, made by that member's own CLI (Rgit-Agent trailer),
#     and the octopus merge has the session's head and all three as parents;
#   - each member's refinement prompt (as the CLI read it on stdin, caught
#     by a shim in front of each CLI on PATH) named the other two members'
#     reports and not its own as another's, and those reports were on the
#     other members' branches when the refinement ran; the server saw a
#     refine call on each CLI's API;
#   - the report merged into main has the seed's eight sections;
#   - git fsck --strict is clean and the API key is nowhere.
#
# Environment: RGIT_E2E_CACHE, RGIT_E2E_BIN and RGIT_E2E_KEEP as in run.sh.
set -euo pipefail

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$E2E_DIR/../.." && pwd)
CACHE=${RGIT_E2E_CACHE:-$HOME/.cache/rgit-e2e}
SYS_PATH=$PATH
BIN=${RGIT_E2E_BIN:-$ROOT/bin}
QUESTION="Why is the sky blue?"
NAME=e2e-council
MEMBERS=(claude codex gemini)

# shellcheck source=lib.sh
source "$E2E_DIR/lib.sh"
# shellcheck source=agents.sh
source "$E2E_DIR/agents.sh"
# shellcheck source=check.sh
source "$E2E_DIR/check.sh"

scratch_dir -council

install_clis
check_versions
build_bins
KEY=$(new_key)

# Shims in front of the real CLIs keep every prompt rgit hands them (its
# command line and stdin: Gemini takes the prompt as an argument, the
# others on stdin) in $PROMPTS, one file per call.
SHIMS=$WORK/shims PROMPTS=$WORK/prompts
mkdir -p "$SHIMS" "$PROMPTS"
for m in "${MEMBERS[@]}"; do
	cat >"$SHIMS/$m" <<-SH
		#!/usr/bin/env bash
		f=\$(mktemp "$PROMPTS/$m.XXXXXX")
		printf '%s\n' "\$@" >"\$f"
		tee -a "\$f" | "$CACHE/node_modules/.bin/$m" "\$@"
		exit "\${PIPESTATUS[1]}"
	SH
	chmod +x "$SHIMS/$m"
done

# One server and one isolated HOME for the three CLIs: their environments
# do not overlap but in HOME and TMPDIR, which are the same.
start_server "$WORK/server.jsonl"
ENV_ALL=()
specs=()
for m in "${MEMBERS[@]}"; do
	agent_env "$m" "$WORK/home" "$BASE" "$KEY"
	ENV_ALL+=("${AGENT_ENV[@]}")
	specs+=("$(agent_spec "$m")")
done
SPECS=$(IFS=,; echo "${specs[*]}")

repo=$WORK/repo out=$WORK/rgit.out
scratch_repo "$repo"
say "council: $SPECS"
rc=0
(cd "$repo" && env -i PATH="$SHIMS:$CACHE/node_modules/.bin:$SYS_PATH" LANG=C.UTF-8 TERM=dumb CI=true \
	GIT_AUTHOR_NAME="rgit e2e" GIT_AUTHOR_EMAIL=e2e@rgit.invalid \
	GIT_COMMITTER_NAME="rgit e2e" GIT_COMMITTER_EMAIL=e2e@rgit.invalid "${ENV_ALL[@]}" \
	timeout 900 "$BIN/rgit" research --name "$NAME" --council "$SPECS" --member-iterations 2 --jobs 3 \
	--review-model "${specs[0]}" --yes --timeout 180 "$QUESTION" </dev/null >"$out" 2>&1) || rc=$?
stop_server
g() { git -C "$repo" "$@"; }
if ((rc != 0)); then
	tail -40 "$out"
	fail "council: rgit research exited $rc"
	exit 1
fi

# check_council: everything but the run itself; non-zero when a check failed.
check_council() {
	local bad=0 session=refs/heads/research/$NAME plog=$repo/.research/$NAME/progress.log
	local first_done start m o branch phases agents parents ws prompt refine body s
	
	# Parallel: every member's research starts before any member's first
	# research commit.
	first_done=$(grep -n 'done \[[0-9]*/[0-9]*\] member-research ' "$plog" | head -1 | cut -d: -f1)
	for m in "${MEMBERS[@]}"; do
		start=$(grep -n "start \[0/[0-9]*\] member-research \"$m\"" "$plog" | head -1 | cut -d: -f1)
		if [[ -z $start || -z $first_done ]] || ((start > first_done)); then
			cat "$plog"
			fail "council: $m's research did not start before the first member finished an iteration (not parallel)"
			bad=1
		fi
	done

	# Each member branch advanced with its own CLI, and the octopus merge took all.
	for m in "${MEMBERS[@]}"; do
		branch=refs/heads/research/$NAME.$m
		g rev-parse -q --verify "$branch" >/dev/null || { g branch -a; fail "council: no branch research/$NAME.$m"; bad=1; continue; }
		phases=$(g log --format='%(trailers:key=Rgit-Phase,valueonly)' --grep="^Rgit-Member: $m\$" "$branch" | sed '/^$/d' | sort -u | xargs)
		[[ $phases == "member-research rank refine" ]] ||
			{ fail "council: research/$NAME.$m has phases '$phases', want member-research, refine and rank"; bad=1; }
		agents=$(g log --format='%(trailers:key=Rgit-Agent,valueonly)' --grep="^Rgit-Member: $m\$" "$branch" | sed '/^$/d' | sort -u | xargs)
		[[ $agents == "$m" ]] || { fail "council: research/$NAME.$m was written by '$agents', want only $m"; bad=1; }
		g merge-base --is-ancestor "$branch" "$session" || { fail "council: research/$NAME.$m is not merged into the session"; bad=1; }
	done
	parents=$(g rev-parse "$session^{/^council-merge}^@" 2>/dev/null | wc -l)
	((parents == 4)) || { fail "council: the octopus merge has $parents parents, want 4"; bad=1; }

	# Each refinement prompt named the other members' reports, which held their
	# research when the refinement ran (the parent of the member's refine commit).
	ws=$(cd "$repo" && pwd -P)/.research/$NAME/members
	for m in "${MEMBERS[@]}"; do
		prompt=$(grep -l -F '# rgit council: cross-pollination' "$PROMPTS/$m".* 2>/dev/null | head -1 || true)
		[[ -n $prompt ]] || { fail "council: $m got no refinement prompt"; bad=1; continue; }
		for o in "${MEMBERS[@]}"; do
			[[ $o != "$m" ]] || continue
			grep -q -F -- "- $o: $ws/$o/report.md" "$prompt" ||
				{ cat "$prompt"; fail "council: $m's refinement prompt does not name $o's report"; bad=1; }
			refine=$(g log -1 --format=%H --all-match --grep='^Rgit-Phase: refine$' --grep="^Rgit-Member: $o\$" "refs/heads/research/$NAME.$o")
			body=$(g show "$refine~1:.research/$NAME/members/$o/report.md" 2>/dev/null || true)
			[[ $body == *"## Key Findings"* ]] || { fail "council: $o's report was empty when $m refined"; bad=1; }
		done
		grep -q -F -- "- $m: " "$prompt" && { fail "council: $m's refinement prompt lists its own report among the others'"; bad=1; }
	done
	for m in "${MEMBERS[@]}"; do
		grep '"phase":"refine"' "$WORK/server.jsonl" | grep -c "\"path\":\"$(agent_path "$m")\"" >/dev/null ||
			{ fail "council: the server saw no refine call from $m"; bad=1; }
	done

	# The report on main: the eight sections.
	body=$(g show "refs/heads/main:reports/$NAME/report.md" 2>&1) || { fail "council: no report on main: $body"; bad=1; }
	for s in 'Executive Summary' 'Key Findings' 'Areas of Strong Consensus' 'Areas of Disagreement or Nuance' \
		'Novel Insights' 'Remaining Open Questions' 'Sources' 'Methodology Note'; do
		grep -q "^## $s" <<<"$body" || { fail "council: the report has no '## $s' section"; bad=1; }
	done

	g fsck --strict --no-progress >"$out.fsck" 2>&1 || { cat "$out.fsck"; fail "council: git fsck --strict"; bad=1; }
	check_no_key council "$repo" "$out" "$KEY" || bad=1
	check_no_key council "$repo" "$WORK/prompts" "$KEY" || bad=1

	return $bad
}

check_council || { fail "council: checks failed"; exit 1; }
say "council: claude, codex and gemini researched in parallel, read each other, and the synthesis has the eight sections"
printf 'e2e council: passed\n'

# shellcheck shell=bash
# Checks of one finished rgit session, all through the git CLI. Each check
# prints what it found when it fails, and the function returns non-zero if
# any check failed.

# check_session AGENT REPO NAME RGIT_OUTPUT SERVER_LOG KEY
check_session() {
	local agent=$1 repo=$2 name=$3 out=$4 slog=$5 key=$6 bad=0
	local branch=refs/heads/research/$name report=reports/$name/report.md
	g() { git -C "$repo" "$@"; }

	g fsck --strict --no-progress >"$out.fsck" 2>&1 || { cat "$out.fsck"; fail "$agent: git fsck --strict"; bad=1; }
	g rev-parse -q --verify "$branch" >/dev/null || { g branch -a; fail "$agent: no branch research/$name"; return 1; }

	# Every phase of the loop is a commit carrying rgit's trailers.
	local phases agents p
	phases=$(g log --format='%(trailers:key=Rgit-Phase,valueonly)' "$branch" | sort -u | xargs)
	for p in plan research review synthesize; do
		[[ " $phases " == *" $p "* ]] || { fail "$agent: no Rgit-Phase: $p commit on research/$name (saw: $phases)"; bad=1; }
	done
	# The phases ran on this agent, not on a fallback or the offline researcher.
	agents=$(g log --format='%(trailers:key=Rgit-Agent,valueonly)' "$branch" | sed '/^$/d' | sort -u | xargs)
	[[ $agents == "$agent" ]] || { fail "$agent: Rgit-Agent trailers are '$agents', want only '$agent'"; bad=1; }
	# Accounting: the research commit names the model and the tokens the
	# server reported (it always reports usage).
	local research model tokens want_model
	want_model=$(agent_spec "$agent")
	want_model=${want_model#*:}
	research=$(g log --format='%(trailers:key=Rgit-Phase,valueonly,separator=)|%(trailers:key=Rgit-Model,valueonly,separator=)|%(trailers:key=Rgit-Tokens,valueonly,separator=)' "$branch" |
		grep '^research|' | tail -1)
	IFS='|' read -r _ model tokens <<<"$research"
	[[ $model == "$want_model" || $model == "$agent:$want_model" ]] ||
		{ fail "$agent: research commit has Rgit-Model '$model', want '$want_model'"; bad=1; }
	if ! [[ $tokens =~ ^[0-9]+$ ]] || ((tokens == 0)); then
		fail "$agent: research commit has Rgit-Tokens '$tokens', want a positive count"
		bad=1
	fi

	# The report is merged into main: a merge commit whose second parent is
	# the session branch, the report in its tree and in the working tree.
	local parents
	read -ra parents < <(g rev-list --parents -n1 refs/heads/main)
	if ((${#parents[@]} != 3)) || [[ ${parents[2]} != $(g rev-parse "$branch") ]]; then
		g log --graph --oneline --all | head -20
		fail "$agent: main is not a merge of research/$name"
		bad=1
	fi
	local body
	body=$(g show "refs/heads/main:$report" 2>&1) || { fail "$agent: $report not on main: $body"; bad=1; }
	for p in '## Executive Summary' '## Sources'; do
		[[ $body == *"$p"* ]] || { fail "$agent: $report on main has no '$p'"; bad=1; }
	done
	[[ -f $repo/$report ]] || { fail "$agent: $report not in the working tree"; bad=1; }
	[[ -z $(g status --porcelain) ]] || { g status --short; fail "$agent: working tree not clean after the merge"; bad=1; }

	# The CLI really talked to the scripted server, with a key, for the phases.
	local calls
	calls=$(grep -c "\"path\":\"$(agent_path "$agent")\"" "$slog" || true)
	((calls >= 4)) || { fail "$agent: only $calls model calls reached the server"; bad=1; }
	grep -q '"auth":\["' "$slog" || { fail "$agent: no model call carried a credential"; bad=1; }
	# ... and wrote the outputs through the CLI's own file tool, not only as
	# final text for rgit to write.
	grep -q '"answer":"tool:' "$slog" || { fail "$agent: the server never answered with a tool call"; bad=1; }
	for p in plan research review synthesize; do
		grep -q "\"phase\":\"$p\"" "$slog" || { fail "$agent: the server saw no $p prompt"; bad=1; }
	done

	check_no_key "$agent" "$repo" "$out" "$key" || bad=1
	return $bad
}

# check_no_key scans every git object (all refs, reflogs and loose
# objects), the files on disk in the repository (state.json, progress.log,
# locks) and rgit's output for the API key value.
check_no_key() {
	local agent=$1 repo=$2 out=$3 key=$4 hits
	hits=$(git -C "$repo" cat-file --batch-all-objects --batch 2>/dev/null | grep -c -a -F -- "$key" || true)
	((hits == 0)) || { fail "$agent: the API key is in $hits git object(s)"; return 1; }
	hits=$(grep -r -l -a -F -- "$key" "$repo" "$out" 2>/dev/null || true)
	[[ -z $hits ]] || { fail "$agent: the API key is in: $hits"; return 1; }
}

# shellcheck shell=bash
# selftest checks check.sh itself on hand-made repositories: a session that
# looks right must pass, and each kind of breakage must be caught. run.sh
# runs it first, so a checker that lets everything through fails the run.

# fake_session REPO NAME AGENT [REVIEWER] builds, with plain git, what a
# finished session of AGENT looks like (REVIEWER, if given, signs the review
# commit), and a matching server log REPO.jsonl.
fake_session() {
	local repo=$1 name=$2 agent=$3 reviewer=${4:-$3} p a model
	model=$(agent_spec "$agent")
	model=${model#*:}
	git init -q -b main "$repo"
	gc() { git -C "$repo" -c user.name=e2e -c user.email=e2e@rgit.invalid "$@"; }
	printf '# scratch\n' >"$repo/README.md"
	gc add README.md
	gc commit -q -m "initial commit"
	gc checkout -q -b "research/$name"
	mkdir -p "$repo/.research/$name" "$repo/reports/$name"
	for p in plan research review synthesize; do
		printf '{"phase":"%s"}\n' "$p" >"$repo/.research/$name/state.json"
		gc add -f ".research/$name/state.json"
		a=$agent
		[[ $p == review ]] && a=$reviewer
		gc commit -q -m "$p" -m "Rgit-Phase: $p
Rgit-Agent: $a
Rgit-Model: $model
Rgit-Tokens: 120"
	done
	printf '# Report\n\n## Executive Summary\nx\n\n## Sources\n1. y\n' >"$repo/reports/$name/report.md"
	gc rm -q -r --cached ".research"
	rm -rf "$repo/.research"
	gc add "reports/$name/report.md"
	gc commit -q -m "complete" -m "Rgit-Phase: complete"
	gc checkout -q main
	gc merge -q --no-ff -m "merge research/$name" "research/$name"
	for p in plan research review synthesize; do
		printf '{"api":"x","path":"%s","phase":"%s","answer":"tool:Write","auth":["X-Api-Key"]}\n' \
			"$(agent_path "$agent")" "$p"
	done >"$repo.jsonl"
}

selftest() {
	local dir=$WORK/selftest key=sk-selftest-SECRET case repo ok=0
	mkdir -p "$dir"
	for case in good leaked-in-commit leaked-in-output wrong-agent no-merge server-missed-phase \
		no-tool-call dirty; do
		repo=$dir/$case
		if [[ $case == wrong-agent ]]; then
			fake_session "$repo" s claude local
		else
			fake_session "$repo" s claude
		fi
		: >"$repo.out"
		case $case in
		leaked-in-commit) # in an unreachable commit: history keeps what a branch dropped
			git -C "$repo" checkout -q --detach
			printf 'key=%s\n' "$key" >"$repo/notes"
			git -C "$repo" add notes && git -C "$repo" -c user.name=e -c user.email=e@x commit -q -m leak
			git -C "$repo" checkout -q main
			;;
		leaked-in-output) printf 'error: bad key %s\n' "$key" >"$repo.out" ;;
		no-merge) git -C "$repo" reset -q --hard HEAD~1 ;;
		no-tool-call) sed -i 's/"answer":"tool:Write"/"answer":"text"/' "$repo.jsonl" ;;
		server-missed-phase) sed -i 's/"phase":"research"/"phase":"other"/' "$repo.jsonl" ;;
		dirty) printf 'changed\n' >>"$repo/README.md" ;;
		esac
		if check_session claude "$repo" s "$repo.out" "$repo.jsonl" "$key" >"$repo.check" 2>&1; then
			[[ $case == good ]] || { cat "$repo.check"; fail "selftest: check.sh passed the '$case' session"; ok=1; }
		else
			[[ $case != good ]] || { cat "$repo.check"; fail "selftest: check.sh failed the good session"; ok=1; }
		fi
	done
	((ok == 0)) && say "selftest: check.sh passes a good session and catches 7 kinds of breakage"
	return $ok
}

#!/usr/bin/env bash
# Counts the system calls rgit makes per phase commit in a breadth 4 depth 3
# mock session, under strace: the first 10 commits after the plan, the last
# 10 topic commits and the four final ones. Unlike wall time on a shared
# machine, the count does not depend on the load, so it shows whether a
# commit's work grows with the session (BenchmarkPhaseGrowthB4D3 gives
# the times).
#
#   testdata/bench/phase-syscalls.sh [path/to/rgit]
set -euo pipefail
command -v strace >/dev/null || { echo "phase-syscalls: strace is not installed" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "$bin" ]; then
	bin=$work/rgit
	(cd "$root" && go build -o "$bin" ./cmd/rgit)
fi
repo=$work/repo
git init -q -b main "$repo"
git -C "$repo" -c user.name=b -c user.email=b@example.com commit -q --allow-empty -m start
(cd "$repo" && GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@example.com GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@example.com \
	strace -f -o "$work/trace" "$bin" research --mock-mode --breadth 4 --depth 3 --yes --max-iterations 5000 \
	'How do tides shape coastlines?' >/dev/null 2>&1)
# A commit ends when rgit renames the branch's lock file over the ref.
# Scheduler and memory calls (futex, mmap, ...) are left out: they are the
# Go runtime's, not the commit's.
awk '
	match($0, /^[0-9]+ +[a-z_0-9]+\(/) {
		call = substr($0, RSTART, RLENGTH - 1); sub(/^[0-9]+ +/, "", call)
		if (call ~ /^(futex|nanosleep|epoll_pwait|epoll_ctl|sched_yield|getpid|gettid|tgkill|rt_sig.*|madvise|mmap|munmap|fcntl|clock_gettime)$/) next
		n++
		if (call == "renameat" && $0 ~ /refs\/heads\/research\/.*\.lock/) { count[++commits] = n; n = 0 }
	}
	function mean(from, to,   i, s) { for (i = from; i <= to; i++) s += count[i]; return s / (to - from + 1) }
	END {
		printf "commits %d\n", commits
		printf "first 10 after the plan: %.0f system calls a commit\n", mean(2, 11)
		printf "last 10 topic commits:   %.0f\n", mean(commits - 13, commits - 4)
		printf "final 4:                 %.0f\n", mean(commits - 3, commits)
	}' "$work/trace"

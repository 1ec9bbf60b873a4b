#!/bin/sh
# Cold and warm index of GOROOT/src+doc against the grep -rlF floor, three
# runs of each, interleaved so that they share the machine's load; wall,
# CPU (user+sys) and peak RSS from /usr/bin/time, medians and spread.
# Usage: testdata/eval/bench-index.sh [runs]
set -eu
runs=${1:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/index.test" ./agents/local/index
cache="$tmp/warm"
RGIT_BENCH_CACHE=$cache "$tmp/index.test" -test.run '^$' -test.bench IndexWarm -test.benchtime 1x >/dev/null
measure() { # name, then the command
	name=$1
	shift
	/usr/bin/time -f "$name %e %U %S %M" -o "$tmp/t" "$@" >"$tmp/out" 2>&1 || { cat "$tmp/out"; exit 1; }
	cat "$tmp/t" >>"$tmp/all"
	grep -o '[0-9]* ns/op' "$tmp/out" | sed "s/^/$name-op /" >>"$tmp/ops" || true
	grep -o '[0-9.]* first-open-ms' "$tmp/out" | awk -v n="$name" '{ print n "-first", $1 * 1e6 }' >>"$tmp/ops" || true
}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$runs"); do
	measure cold "$tmp/index.test" -test.run '^$' -test.bench IndexCold -test.benchtime 1x
	measure warm env RGIT_BENCH_CACHE="$cache" "$tmp/index.test" -test.run '^$' -test.bench IndexWarm -test.benchtime 1x
	measure grep "$tmp/index.test" -test.run '^$' -test.bench GrepFloor -test.benchtime 3x
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
# cold and warm: one index each; grep: three questions per process.
awk '
	{ wall[$1] = wall[$1] " " $2; cpu[$1] = cpu[$1] " " ($3 + $4); rss[$1] = rss[$1] " " $5 / 1024 }
	function med(s,   a, n, i, j, x) {
		n = split(s, a, " ")
		for (i = 2; i <= n; i++) { x = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
		return sprintf("%.2f (%.2f-%.2f)", a[int((n + 1) / 2)], a[1], a[n])
	}
	END { for (k in wall) printf "%-5s process wall s %s  cpu s %s  peak RSS MB %s\n", k, med(wall[k]), med(cpu[k]), med(rss[k]) }
' "$tmp/all"
awk '{ v[$1] = v[$1] " " $2 / 1e9 }
	function med(s,   a, n, i, j, x) {
		n = split(s, a, " ")
		for (i = 2; i <= n; i++) { x = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
		return sprintf("%.3f (%.3f-%.3f)", a[int((n + 1) / 2)], a[1], a[n])
	}
	END { for (k in v) printf "%-8s per op wall s %s\n", k, med(v[k]) }' "$tmp/ops"

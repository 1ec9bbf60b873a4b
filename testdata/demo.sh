#!/usr/bin/env bash
# make demo: a real research session with the built-in offline researcher
# over the Go standard library's sync package, in a scratch repository.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
rgit="$here/bin/rgit"
goroot="$(go env GOROOT)"
work="$(mktemp -d "${TMPDIR:-/tmp}/rgit-demo.XXXXXX")"
cd "$work"
git init -q -b main
git -c user.name=demo -c user.email=demo@rgit.invalid commit -q --allow-empty -m "demo: empty start"
export GIT_AUTHOR_NAME="${GIT_AUTHOR_NAME:-rgit demo}" GIT_AUTHOR_EMAIL="${GIT_AUTHOR_EMAIL:-demo@rgit.invalid}"
export GIT_COMMITTER_NAME="${GIT_COMMITTER_NAME:-rgit demo}" GIT_COMMITTER_EMAIL="${GIT_COMMITTER_EMAIL:-demo@rgit.invalid}"

"$rgit" research --model local --corpus "$goroot/src/sync" --corpus "$goroot/src/internal/sync" --breadth 2 --depth 1 --yes \
  "How does sync.Mutex avoid starving waiting goroutines?"

echo
echo "demo repository: $work"
echo "report:          $work/reports/how-does-sync-mutex-avoid-starving-waiting-goroutines/report.md"
echo "history:         cd $work && $rgit log && git log --oneline --graph --all"

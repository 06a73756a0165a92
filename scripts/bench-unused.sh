#!/usr/bin/env bash
# Benchmark: `imgtrace unused` beside FengNiao `--list-only` (../shared/peers/FengNiao/build.sh),
# the unused-image finder teams use today, on each real source tree of the corpus. The figure is
# CPU time (user + system, best of three): both tools use every core, so CPU is what a CI runner
# pays. FengNiao deletes files without --list-only: it runs in a throwaway copy of each tree.
# usage: scripts/bench-unused.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
. scripts/bench-measure.sh
corpus=../shared/corpus/sources
[ -d "$corpus" ] || { echo "no corpus at $corpus: nothing to measure"; exit 0; }
swift build -c release --product imgtrace >/dev/null
bin=$(swift build -c release --show-bin-path)/imgtrace
fengniao=$(../shared/peers/FengNiao/build.sh 2>/dev/null | tail -n 1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# cpu COMMAND...: the least user + system seconds of three runs (a busy machine only adds).
cpu() {
  local best="" t
  for _ in 1 2 3; do
    /usr/bin/time -o "$work/time" -f "%U %S" "$@" >/dev/null 2>&1
    t=$(awk '{ printf "%.3f", $1 + $2 }' "$work/time")
    best=$(awk -v a="$best" -v b="$t" 'BEGIN { print (a == "" || b < a) ? b : a }')
  done
  printf "%s" "$best"
}
for tree in "$corpus"/*/; do
  tree=${tree%/}
  name=$(basename "$tree")
  rm -rf "$work/tree" && cp -r "$tree" "$work/tree" && chmod -R u+w "$work/tree"
  ours=$(cpu "$bin" unused --bundle "$work/tree" --source-root "$work/tree" --fail-on never --format json)
  theirs=$(cd "$work/tree" && cpu "$fengniao" --list-only)
  listed=$(cd "$work/tree" && "$fengniao" --list-only 2>/dev/null | grep -c ' /' || true)
  printf '%-34s imgtrace unused %6.2f s CPU   FengNiao --list-only %6.2f s CPU (%s files listed)   %.2f×\n' \
    "$name" "$ours" "$theirs" "$listed" "$(awk -v a="$ours" -v b="$theirs" 'BEGIN { print a / b }')"
  figure "unused-$name" "unused on $name, CPU (best of 3)" "$ours" "FengNiao --list-only" "$theirs" s "≤ 0.5× FengNiao"
done

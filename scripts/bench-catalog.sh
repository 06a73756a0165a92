#!/usr/bin/env bash
# Benchmark: `imgtrace catalog` on a synthetic bundle of N mixed-format images (headers and digests),
# beside `jdupes -r` (Debian's jdupes) on the same tree, and on the largest corpus bundle.
# usage: scripts/bench-catalog.sh [N]   (default 20000)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20000}
out=bench-out/Synthetic-$n.app
[ -d "$out" ] || python3 scripts/make-bundle.py "$n" "$out"
swift build -c release --product imgtrace >/dev/null
bin=$(swift build -c release --show-bin-path)/imgtrace
cat "$out"/* "$out"/assets/*/* >/dev/null 2>&1 || true   # warm the page cache for both tools
. scripts/bench-measure.sh
# best LABEL COMMAND...: three runs, each printed; the fastest wall time is left in $best.
best() {
  local label=$1; shift
  best=
  for run in 1 2 3; do
    local start end t
    start=$(date +%s.%N)
    /usr/bin/time -f "run $run: %e s wall, %U s user, peak RSS %M KiB" "$@" >/dev/null
    end=$(date +%s.%N)
    t=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }')
    best=$(awk -v a="${best:-$t}" -v b="$t" 'BEGIN { print (b < a ? b : a) }')
  done
  echo "$label: best $best s"
}
echo "== imgtrace catalog, $n images (json to /dev/null)"
best "imgtrace catalog" "$bin" catalog "$out" --format json
ours=$best
"$bin" catalog "$out" --format json | python3 -c "import json,sys; d=json.load(sys.stdin); im=d['images']; print(len(im), 'images,', sum(1 for i in im if i['digest']), 'digested')"
if command -v jdupes >/dev/null; then
  echo "== jdupes -r (same tree)"
  best "jdupes -r" jdupes -r -q "$out"
  goal=-; [ "$n" = 20000 ] && goal="≤ 1.5× jdupes"
  figure catalog "catalog, $n images (headers and digests; best of 3)" "$ours" "jdupes -r" "$best" s "$goal"
else
  echo "jdupes is not installed (apt-get install jdupes) — skipped"
fi
corpus=../shared/corpus/bundles/bitbar-reactnative-2023-device-ipa/BitBarSampleApp.ipa
if [ -f "$corpus" ]; then
  echo "== imgtrace catalog on the largest corpus bundle (an .ipa read in place)"
  /usr/bin/time -f "%e s wall, peak RSS %M KiB" "$bin" catalog "$corpus" --format json >/dev/null
fi

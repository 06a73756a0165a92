#!/usr/bin/env bash
# Benchmark: Assets.car reading speed on the corpus and on a synthetic 100,000-rendition catalog,
# beside one pass over the same file's bytes (memory speed) in the same run.
# usage: scripts/bench-car.sh [RENDITIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-measure.sh
count=${1:-100000}
swift build -c release --product CatalogBench >/dev/null
bin=$(swift build -c release --show-bin-path)/CatalogBench
out=$(mktemp)
/usr/bin/time -f "peak RSS %M KiB" "$bin" "$count" 2>&1 | tee "$out"
reader=$(awk '/^synthetic \(/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "ms") { print $i; exit } }' "$out")
floor=$(awk '/^one pass over the same bytes/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "ms") { print $i; exit } }' "$out")
rm -f "$out"
goal=-; [ "$count" = 100000 ] && goal="≤ 20 ms"
figure car-reader "Assets.car reader, $count renditions (best of 5)" "$reader" "one pass over the file's bytes" "$floor" ms "$goal"

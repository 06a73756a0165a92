#!/usr/bin/env bash
# Benchmark: `imgtrace analyze` on a generated ~1 GB log against the largest corpus bundle,
# beside `imgtrace trace` alone on the same log. The log's most frequent names are the
# bundle's own, so most loads resolve. Prints time, throughput and peak memory.
# usage: scripts/bench-analyze.sh [SIZE_MB] [DISTINCT_NAMES] [NOISE_LINES_PER_HIT] [BUNDLE]
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-1024}
distinct=${2:-20000}
noise=${3:-0}
bundle=${4:-../shared/corpus/bundles/bitbar-reactnative-2023-device-ipa/BitBarSampleApp.ipa}
out=${BENCH_DIR:-bench-out}
mkdir -p "$out"
swift build -c release --product imgtrace >/dev/null
bin=$(swift build -c release --show-bin-path)/imgtrace
names="$out/$(basename "$bundle").names"
"$bin" catalog "$bundle" --format json | python3 -c 'import json, sys
for name in sorted({i["name"] for i in json.load(sys.stdin)["images"]}): print(name)' > "$names"
log="$out/analyze-${size}MB-${distinct}-noise${noise}-$(basename "$bundle").log"
[ -f "$log" ] || python3 scripts/make-trace-log.py "$log" "$size" "$distinct" "$noise" "$names"
bytes=$(stat -c %s "$log")

. scripts/bench-measure.sh

echo "log: $log ($(awk -v b="$bytes" 'BEGIN{printf "%.0f", b/1048576}') MiB, $distinct distinct names, $noise noise lines per hit)"
echo "bundle: $bundle ($(wc -l < "$names") distinct image names)"
measure "wc -l" wc -l "$log"
measure "imgtrace trace --format text" "$bin" trace "$log" --format text
measure "imgtrace analyze --format text" "$bin" analyze "$log" --bundle "$bundle" --fail-on never
measure "imgtrace trace --format json" "$bin" trace "$log" --format json
measure "imgtrace analyze --format json" "$bin" analyze "$log" --bundle "$bundle" --format json --fail-on never

#!/usr/bin/env bash
# Benchmark: `imgtrace trace --format text` on a generated ~1 GB log, beside `wc -l`.
# Prints throughput and peak memory. usage: [IMGTRACE_BIN=…] scripts/bench-trace.sh [SIZE_MB] [DISTINCT_NAMES] [NOISE_LINES_PER_HIT]
# NOISE_LINES_PER_HIT 0 makes a hit-dense worst case; 8 is closer to a chatty real app.
#        scripts/bench-trace.sh mixed [SIZE_MB]   the mixed log of ../shared/bench/genlog.py (lldb
#        `p`/`po` echoes, bare names, console noise with CRLF, stop reports), 256 MiB by default.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = mixed ]; then
  mib=${2:-256}
  log=${BENCH_DIR:-bench-out}/mixed-${mib}MiB.log
  mkdir -p "$(dirname "$log")"
  python3 ../shared/bench/genlog.py "$log" $((mib << 20)) >/dev/null
  swift build -c release --product imgtrace >/dev/null
  bin=${IMGTRACE_BIN:-$(swift build -c release --show-bin-path)/imgtrace}
  bytes=$(stat -c %s "$log")
  . scripts/bench-measure.sh
  echo "log: $log ($mib MiB, genlog.py's mixed shapes)"
  measure "wc -l" wc -l "$log"
  wc_seconds=$measured_seconds
  measure "imgtrace trace --format text" "$bin" trace "$log" --format text
  text_seconds=$measured_seconds
  measure "imgtrace trace --format json" "$bin" trace "$log" --format json
  json_seconds=$measured_seconds
  awk -v t="$text_seconds" -v w="$wc_seconds" 'BEGIN { printf "trace text: %.0f× wc -l\n", t / (w > 0 ? w : 0.001) }'
  figure trace-mixed-text "trace, genlog.py mixed log ($mib MiB)" "$(rate "$text_seconds")" "wc -l" "$(rate "$wc_seconds")" MB/s "≤ 10× wc -l"
  figure trace-mixed-json "trace --format json, genlog.py mixed log ($mib MiB)" "$(rate "$json_seconds")" "wc -l" "$(rate "$wc_seconds")" MB/s "≥ 300 MB/s"
  exit 0
fi
size=${1:-1024}
distinct=${2:-20000}
noise=${3:-0}
out=${BENCH_DIR:-bench-out}
mkdir -p "$out"
log="$out/trace-${size}MB-${distinct}-noise${noise}.log"
[ -f "$log" ] || python3 scripts/make-trace-log.py "$log" "$size" "$distinct" "$noise"
# IMGTRACE_BIN=path measures another build (e.g. the one before a change) on the same log.
if [ -n "${IMGTRACE_BIN:-}" ]; then
  bin=$IMGTRACE_BIN
else
  swift build -c release --product imgtrace >/dev/null
  bin=$(swift build -c release --show-bin-path)/imgtrace
fi
bytes=$(stat -c %s "$log")

. scripts/bench-measure.sh

echo "log: $log ($(awk -v b="$bytes" 'BEGIN{printf "%.0f", b/1048576}') MiB, $distinct distinct names, $noise noise lines per hit)"
measure "wc -l" wc -l "$log"
wc_seconds=$measured_seconds
measure "imgtrace trace --format text" "$bin" trace "$log" --format text
text_seconds=$measured_seconds
measure "imgtrace trace --format json" "$bin" trace "$log" --format json
json_seconds=$measured_seconds
if [ "$noise" = 0 ]; then shape="hit-dense"; text_goal="≤ 10× wc -l"; json_goal="≥ 300 MB/s"; else shape="$noise noise lines a hit"; text_goal=-; json_goal=-; fi
size_mib=$(awk -v b="$bytes" 'BEGIN{printf "%.0f", b/1048576}')
figure "trace-noise$noise-text" "trace, $shape log ($size_mib MiB)" "$(rate "$text_seconds")" "wc -l" "$(rate "$wc_seconds")" MB/s "$text_goal"
figure "trace-noise$noise-json" "trace --format json, $shape log ($size_mib MiB)" "$(rate "$json_seconds")" "wc -l" "$(rate "$wc_seconds")" MB/s "$json_goal"

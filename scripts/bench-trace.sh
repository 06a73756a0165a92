#!/usr/bin/env bash
# Benchmark: `imgtrace trace --format text` on a generated ~1 GB log, beside `wc -l`.
# Prints throughput and peak memory. usage: [IMGTRACE_BIN=…] scripts/bench-trace.sh [SIZE_MB] [DISTINCT_NAMES] [NOISE_LINES_PER_HIT]
# NOISE_LINES_PER_HIT 0 makes a hit-dense worst case; 8 is closer to a chatty real app.
#        scripts/bench-trace.sh mixed [SIZE_MB]   the mixed log of ../shared/bench/genlog.py (lldb
#        `p`/`po` echoes, bare names, console noise with CRLF, stop reports), 256 MiB by default.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${BENCH_DIR:-bench-out}
mkdir -p "$out"
if [ "${1:-}" = mixed ]; then
  mib=${2:-256}
  log="$out/mixed-${mib}MiB.log"
  python3 ../shared/bench/genlog.py "$log" $((mib << 20)) >/dev/null
  about="genlog.py's mixed shapes"
  id=mixed shape="genlog.py mixed"; text_goal="≤ 10× wc -l"; json_goal="≥ 300 MB/s"
else
  size=${1:-1024}
  distinct=${2:-20000}
  noise=${3:-0}
  log="$out/trace-${size}MB-${distinct}-noise${noise}.log"
  [ -f "$log" ] || python3 scripts/make-trace-log.py "$log" "$size" "$distinct" "$noise"
  about="$distinct distinct names, $noise noise lines per hit"
  id=noise$noise
  if [ "$noise" = 0 ]; then shape="hit-dense"; text_goal="≤ 10× wc -l"; json_goal="≥ 300 MB/s"; else shape="$noise noise lines a hit"; text_goal=-; json_goal=-; fi
fi
# IMGTRACE_BIN=path measures another build (e.g. the one before a change) on the same log.
if [ -n "${IMGTRACE_BIN:-}" ]; then
  bin=$IMGTRACE_BIN
else
  swift build -c release --product imgtrace >/dev/null
  bin=$(swift build -c release --show-bin-path)/imgtrace
fi
bytes=$(stat -c %s "$log")

. scripts/bench-measure.sh

size_mib=$(awk -v b="$bytes" 'BEGIN{printf "%.0f", b/1048576}')
echo "log: $log ($size_mib MiB, $about)"
measure "wc -l" wc -l "$log"
wc_seconds=$measured_seconds
measure "imgtrace trace --format text" "$bin" trace "$log" --format text
text_seconds=$measured_seconds
measure "imgtrace trace --format json" "$bin" trace "$log" --format json
json_seconds=$measured_seconds
awk -v t="$text_seconds" -v w="$wc_seconds" 'BEGIN { printf "trace text: %.0f× wc -l\n", t / (w > 0 ? w : 0.001) }'
figure "trace-$id-text" "trace, $shape log ($size_mib MiB)" "$(rate "$text_seconds")" "wc -l" "$(rate "$wc_seconds")" MB/s "$text_goal"
figure "trace-$id-json" "trace --format json, $shape log ($size_mib MiB)" "$(rate "$json_seconds")" "wc -l" "$(rate "$wc_seconds")" MB/s "$json_goal"

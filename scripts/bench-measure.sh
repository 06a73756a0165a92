# Sourced by the bench-*.sh scripts.
#
# `measure LABEL COMMAND...` runs COMMAND on a warm page cache and prints its wall time,
# throughput over $bytes (the input's size) and peak memory; it leaves the time in
# $measured_seconds and the peak in $measured_kib. Needs $log (read once to warm the cache)
# and $bytes.
measure() {
  local label=$1; shift
  cat "$log" >/dev/null
  local start end
  # Wall time from nanosecond clocks (time(1)'s %e has 10 ms steps: too coarse for `wc -l`).
  start=$(date +%s.%N)
  measured_kib=$( { /usr/bin/time -f "%M" "$@" >/dev/null; } 2>&1 | tail -n 1)
  end=$(date +%s.%N)
  measured_seconds=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.4f", e - s }')
  awk -v l="$label" -v s="$measured_seconds" -v k="$measured_kib" -v b="$bytes" \
    'BEGIN { printf "%-34s %7.2f s  %8.0f MB/s  peak %6.1f MiB\n", l, s, (b/1048576)/(s>0?s:0.001), k/1024 }'
}

# Outputs are discarded into /dev/null. Where /dev/null is not the null device (a container
# that replaced it with a file), they are written to that file in memory: said once, since a
# command writing hundreds of MB (trace --format json) then pays for it.
if [ ! -c /dev/null ] && [ -z "${BENCH_NULL_SAID:-}" ]; then
  echo "note: /dev/null here is a regular file, not the null device: outputs are written to it (in memory)"
  export BENCH_NULL_SAID=1
fi

# `rate SECONDS` prints MB/s over $bytes, for `figure`.
rate() { awk -v s="$1" -v b="$bytes" 'BEGIN { printf "%.0f", (b/1048576)/(s>0?s:0.001) }'; }

# `figure KEY WHAT VALUE PEER PEER_VALUE UNIT GOAL`: one headline of a benchmark, beside its peer
# from the same run. Printed, and appended to $BENCH_FIGURES when it is set: that file becomes
# Benchmarks/figures.tsv and the README's figures table (scripts/bench-figures.sh). UNIT is a
# cost (ms, s, B/name) or a rate (MB/s); GOAL is the bar, or - when there is none.
figure() {
  printf 'figure: %s: %s %s beside %s %s %s (goal: %s)\n' "$2" "$3" "$6" "$4" "$5" "$6" "$7"
  if [ -n "${BENCH_FIGURES:-}" ]; then printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$BENCH_FIGURES"; fi
}

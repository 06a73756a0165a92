# Sourced by the bench-*.sh scripts: `measure LABEL COMMAND...` runs COMMAND on a warm page cache
# and prints its wall time, throughput over $bytes (the input's size) and peak memory.
# Needs $log (read once to warm the cache) and $bytes.
measure() {
  local label=$1; shift
  cat "$log" >/dev/null
  local t
  t=$( { /usr/bin/time -f "%e %M" "$@" >/dev/null; } 2>&1 | tail -n 1)
  local secs=${t% *} kib=${t#* }
  awk -v l="$label" -v s="$secs" -v k="$kib" -v b="$bytes" \
    'BEGIN { printf "%-34s %7.2f s  %8.0f MB/s  peak %6.1f MiB\n", l, s, (b/1048576)/(s>0?s:0.001), k/1024 }'
}

#!/usr/bin/env bash
# Benchmark: what images cost real launches, as the in-process agent times them (issue 43).
# Debian's GNUstep apps (Gridlock, Chess, Gomoku) under Xvfb, each recorded RUNS times with
# `record --agent --runs RUNS` and analysed together: the median launch's main-thread image time
# (lookups, and decodes at first use) with its range over the launches, beside the median launch,
# and the names that cost most (analyze's own "slowest" line).
# usage: scripts/bench-image-time.sh [RUNS]   (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-measure.sh
runs=${1:-5}
command -v xvfb-run >/dev/null || { echo "bench-image-time: xvfb-run is not installed" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --product imgtrace >/dev/null
swift build -c release --product ImgtraceAgent >/dev/null
bin=$(swift build -c release --show-bin-path)/imgtrace
for app in Gridlock Chess Gomoku; do
  path=/usr/lib/GNUstep/Applications/$app.app
  [ -d "$path" ] || { echo "bench-image-time: $path is not installed (scripts/setup.sh test installs it)" >&2; exit 2; }
  xvfb-run -a "$bin" record --agent --runs "$runs" --duration 8 --output "$work/$app.log" -- "$path" >/dev/null 2>&1 || true
  logs=("$work/$app"-*.log)
  # Per launch, from the analysis of that launch alone: main-thread lookups and decodes, and the launch.
  per_launch=$(for log in "${logs[@]}"; do
    "$bin" analyze "$log" --bundle "$path" --format json --fail-on never |
      python3 -c 'import json,sys; d=json.load(sys.stdin); t=d["metrics"]["launch"].get("time",{}); print(t.get("mainThreadMicroseconds",0)+t.get("mainThreadDecodeMicroseconds",0), t.get("mainThreadDecodeMicroseconds",0))'
    sed -n 's/.*imgtrace-recording-end .*launch-ms=\([0-9]*\).*/\1/p' "$log" | tail -1
  done | paste - -)
  read -r image_ms low high decode_ms launch_ms < <(printf '%s\n' "$per_launch" | python3 -c '
import sys
rows = [[int(x) for x in line.split()] for line in sys.stdin if line.strip()]
image = sorted(r[0] for r in rows); launch = sorted(r[2] for r in rows)
median = sorted(rows)[(len(rows) - 1) // 2]
print("%.1f %.1f %.1f %.2f %d" % (median[0] / 1000, image[0] / 1000, image[-1] / 1000, median[1] / 1000, launch[(len(launch) - 1) // 2]))')
  echo "$app: main-thread image time per launch (ms, lookups + decodes; decodes): $(printf '%s\n' "$per_launch" | awk '{ printf "%.1f+%.2f ", ($1 - $2) / 1000, $2 / 1000 }')"
  "$bin" analyze "${logs[@]}" --bundle "$path" --fail-on never | grep -A1 '^  slowest' | sed "s/^/$app: /"
  key=$(printf '%s' "$app" | tr 'A-Z' 'a-z')
  figure "image-time-$key" "$app: main-thread image time at launch, record --agent (median of $runs; range $low–$high ms; decodes $decode_ms ms)" \
    "$image_ms" "the launch (median)" "$launch_ms" "ms" "-"
done

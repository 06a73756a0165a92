#!/usr/bin/env bash
# Benchmark: what a capture costs a real launch. Debian's Gridlock (GNUstep) under Xvfb, from the
# program's start to its launch end (`-[NSApplication finishLaunching]` returning), as each
# recorder measures it (`launch-ms` in the recording's end line):
#   - the agent wrapping only the launch end (no image API: the launch as untraced as imgtrace can
#     time it, the preload included),
#   - `record --agent` (every image API wrapped, in-process),
#   - `record --backtrace 0` (ptrace, a stop per hit),
#   - `record` (ptrace with its default 8 frames).
# Each row is the median of RUNS launches (default 5) and their range, run in turn.
# usage: scripts/bench-launch.sh [RUNS] [APP]   (APP default /usr/lib/GNUstep/Applications/Gridlock.app)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-measure.sh
runs=${1:-5}
app=${2:-/usr/lib/GNUstep/Applications/Gridlock.app}
[ -d "$app" ] || { echo "bench-launch: $app is not installed (apt-get install gridlock.app)" >&2; exit 2; }
command -v xvfb-run >/dev/null || { echo "bench-launch: xvfb-run is not installed" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --product imgtrace >/dev/null
swift build -c release --product ImgtraceAgent >/dev/null
bin=$(swift build -c release --show-bin-path)/imgtrace
modes=("untraced (launch-end wrapper only)" "record --agent" "record --backtrace 0 (ptrace)" "record (ptrace, 8 frames)")
capture() { # INDEX LOG
  case $1 in
    0) set -- --agent --objc '+[ImgtraceNoSuchClass noSuchSelector:]' --output "$2" ;;
    1) set -- --agent --output "$2" ;;
    2) set -- --backtrace 0 --output "$2" ;;
    3) set -- --output "$2" ;;
  esac
  xvfb-run -a "$bin" record "$@" --duration 8 -- "$app" >/dev/null 2>&1 || true
}
declare -A times
for run in $(seq "$runs"); do
  for index in "${!modes[@]}"; do
    log="$work/launch-$index-$run.log"
    capture "$index" "$log"
    ms=$( (sed -n 's/.*imgtrace-recording-end .*launch-ms=\([0-9]*\).*/\1/p' "$log" 2>/dev/null || true) | tail -1)
    times[$index]="${times[$index]:-} ${ms:-none}"
  done
done
printf '%-38s %10s %16s   %s\n' "capture ($(basename "$app"), $runs launches)" "median ms" "range ms" "each"
declare -A medians
for index in "${!modes[@]}"; do
  # shellcheck disable=SC2086
  row=$(printf '%s\n' ${times[$index]} | awk -v label="${modes[$index]}" -v each="${times[$index]}" '
    /^[0-9]+$/ { v[n++] = $1 }
    END {
      if (n == 0) { printf "%-38s %10s %16s  %s\n", label, "-", "-", each; exit }
      for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
      median = (n % 2) ? v[int(n / 2)] : (v[n / 2 - 1] + v[n / 2]) / 2
      printf "%-38s %10.0f %16s  %s\n", label, median, v[0] "-" v[n - 1], each
    }')
  printf '%s\n' "$row"
  medians[$index]=$(printf '%s' "$row" | cut -c39-49 | tr -d ' ')
done
# The README's figures: each capture's launch beside the untraced one, from this run.
if [ "${medians[0]}" != "-" ]; then
  figure launch-agent "Gridlock's launch under record --agent (median of $runs)" "${medians[1]}" "untraced" "${medians[0]}" "ms" "≤ 1.1× untraced"
  figure launch-ptrace "Gridlock's launch under record, 8 frames (median of $runs)" "${medians[3]}" "untraced" "${medians[0]}" "ms" "≤ 1.5× untraced"
fi

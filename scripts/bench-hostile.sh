#!/usr/bin/env bash
# Times the release `imgtrace` on full-size hostile inputs (issue 12's classes that hurt by size)
# and on ../shared/corpus/hostile, and prints seconds and peak memory for each. The bar is under
# 1 s and under 100 MB each; a line over it is marked `OVER`.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
out=${BENCH_DIR:-bench-out}/hostile
swift build --product imgtrace-fuzz >/dev/null
swift build -c release --product imgtrace >/dev/null
bin=$(swift build -c release --show-bin-path)/imgtrace
[ -d "$out" ] || "$(swift build --show-bin-path)/imgtrace-fuzz" samples "$out"

measure() {
  local stats
  stats=$(mktemp)
  /usr/bin/time -o "$stats" -f '%e %M' "$bin" "$@" >/dev/null 2>&1 || true
  local line
  line=$(tail -1 "$stats")
  rm -f "$stats"
  local seconds=${line% *} kb=${line#* }
  local mark=""
  awk -v s="$seconds" -v k="$kb" 'BEGIN { exit !(s >= 1 || k >= 102400) }' && mark="  OVER"
  printf '%6.2f s %7.1f MB  %-10s %s%s\n' "$seconds" "$(awk -v k="$kb" 'BEGIN{print k/1024}')" "$1" "${*:2}" "$mark"
}

measure catalog "$out/renditions-one-id.app"
measure catalog "$out/icon-files.app"
measure catalog "$out/nested.app"
measure car "$out/shared-blocks.car"
measure trace "$out/mixed-shapes.log"
measure analyze "$out/mixed-shapes.log" --bundle Examples/SampleApp.app --format html
# unused on source trees that once cost targets × files or files² (issue 58): 6,000 targets sharing
# one resources phase of 6,000 files, a set of 2,000 files given to --fix, 4 MiB Swift files of
# nested calls, and a nested and a 4 MiB manifest.
trees="$out/unused-trees"
if [ ! -d "$trees" ]; then
  python3 scripts/make-unused-trees.py "$trees" 6000 2000 --hostile
fi
measure unused --bundle "$trees/shared-phase" --source-root "$trees/shared-phase"
measure unused --bundle "$trees/large-set" --source-root "$trees/large-set" --fix "$out/large-set.patch"
measure unused --bundle Examples/SampleApp.app --source-root "$trees/swift-open"
measure unused --bundle Examples/SampleApp.app --source-root "$trees/swift-deep"
measure unused --bundle "$trees/manifests" --source-root "$trees/manifests"

if [ -d ../shared/corpus/hostile ]; then
  for f in ../shared/corpus/hostile/*; do
    case "$f" in
      *.log) measure analyze "$f" --bundle Examples/SampleApp.app --format html ;;
      *.app|*.xcassets) measure catalog "$f" ;;
    esac
  done
fi

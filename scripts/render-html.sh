#!/usr/bin/env bash
# Renders an imgtrace HTML report to a PNG with headless Chromium (Debian's `chromium`), to check
# the page in a real browser. usage: scripts/render-html.sh REPORT.html OUT.png [WIDTH] [HEIGHT]
# With no report given, renders the example launch's report into bench-out/.
set -euo pipefail
cd "$(dirname "$0")/.."
report=${1:-}
out=${2:-bench-out/example-report.png}
width=${3:-1200}
height=${4:-3000}
mkdir -p "$(dirname "$out")"
if [ -z "$report" ]; then
  report=bench-out/example-report.html
  swift run -q imgtrace analyze Examples/launch.log --bundle Examples/SampleApp.app --format html --fail-on never > "$report"
fi
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$browser" ] || { echo "render-html: no chromium found (apt-get install chromium)" >&2; exit 2; }
# --no-sandbox: CI containers run as root; the page is our own file and loads nothing from the network.
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$width,$height" \
  --screenshot="$(realpath -m "$out")" "file://$(realpath "$report")" 2>/dev/null
echo "rendered $report -> $out"

#!/usr/bin/env bash
# What `analyze --history` adds to an audit: the example launch audited alone and with a history
# of 1,000 recorded builds (gate against the last 10, then the build written), best of 5 each, in
# the same run. The goal: under 100 ms beyond the audit. The 1,000 builds are copies of one build
# recorded by imgtrace itself, made with SQL (python3's sqlite3) so the set-up takes seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --product imgtrace >/dev/null
bin=$(swift build -c release --show-bin-path)/imgtrace
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log=Examples/launch.log app=Examples/SampleApp.app
"$bin" analyze "$log" --bundle "$app" --history "$work/seed.sqlite" --build seed --branch main >/dev/null || true
python3 - "$work/seed.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
columns = [row[1] for row in db.execute("PRAGMA table_info(builds)") if row[1] not in ("id", "build")]
for n in range(1, 1000):
    cursor = db.execute(f"INSERT INTO builds (build, {', '.join(columns)}) SELECT 'copy-{n}', {', '.join(columns)} FROM builds WHERE build = 'seed'")
    new = cursor.lastrowid
    db.execute(f"INSERT INTO build_images SELECT {new}, name, image, loads, decoded_bytes, bytes_on_disk, main_thread_microseconds FROM build_images WHERE build_id = 1")
    db.execute(f"INSERT INTO build_findings SELECT {new}, fingerprint, rule, severity, message, gates, rules FROM build_findings WHERE build_id = 1")
db.commit()
print("builds:", db.execute("SELECT COUNT(*) FROM builds").fetchone()[0], file=sys.stderr)
PY
best() {
  local best=999999
  for i in 1 2 3 4 5; do
    [ -n "${prepare:-}" ] && $prepare
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s%N)
    local ms=$(((end - start) / 1000000))
    [ $ms -lt $best ] && best=$ms
  done
  echo $best
}
alone=$(best "$bin" analyze "$log" --bundle "$app" --format json)
# Each timed run writes to a fresh copy of the 1,000-build history, as one CI job would.
prepare="cp $work/seed.sqlite $work/h.sqlite"
with=$(best "$bin" analyze "$log" --bundle "$app" --format json --history "$work/h.sqlite" --build next --branch main)
unset prepare
printf 'analyze alone (best of 5):                           %5d ms\n' "$alone"
printf 'analyze --history, 1,000 builds recorded (best of 5): %5d ms\n' "$with"
printf 'added by the history (gate of 10 builds + the write): %5d ms   goal < 100 ms\n' $((with - alone))

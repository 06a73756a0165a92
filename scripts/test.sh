#!/usr/bin/env bash
# Quick start, second command (and CI's test step): install what the tests need
# (scripts/setup.sh), run the whole suite, then list every skipped test with its reason, so a
# skip cannot scroll by unseen. The test runner's own summary is repeated as the last line.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
scripts/setup.sh test
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
swift test --disable-swift-testing "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
# XCTest on Linux writes "file:line: Class.test : Test skipped - reason"; macOS writes
# "... error: -[Class test] : Test skipped - reason". Both keep the reason after "skipped".
skips=$(grep -E ' : Test skipped' "$log" | sed -E 's/^.*: ([^ ]+) : Test skipped( - )?/\1: /' | sort -u || true)
summary=$(grep -E '^\s*Executed [0-9]+ tests?' "$log" | tail -1 || true)
if [ -n "$skips" ]; then
  echo
  echo "Skipped tests ($(printf '%s\n' "$skips" | wc -l)), each with its reason:"
  printf '  %s\n' "$skips"
fi
[ -n "$summary" ] && echo "$summary"
exit "$status"

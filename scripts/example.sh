#!/usr/bin/env bash
# Quick start, first command: install what the build needs (scripts/setup.sh), build imgtrace and
# audit the shipped example launch against the example app. Extra arguments go to `analyze`
# (e.g. `--format html --output report.html`).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
scripts/setup.sh build
swift build --product imgtrace >&2
exec "$(swift build --show-bin-path)/imgtrace" analyze Examples/launch.log --bundle Examples/SampleApp.app --fail-on never "$@"

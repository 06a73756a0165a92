#!/usr/bin/env bash
# Benchmark: Assets.car reading speed on the corpus and on a synthetic 100,000-rendition catalog.
# usage: scripts/bench-car.sh [RENDITIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product CatalogBench >/dev/null
bin=$(swift build -c release --show-bin-path)/CatalogBench
/usr/bin/time -f "peak RSS %M KiB" "$bin" "${1:-100000}"

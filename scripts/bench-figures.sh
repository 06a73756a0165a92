#!/usr/bin/env bash
# The README's figures table, from the benchmarks' own output: never typed by hand.
#
#   scripts/bench-figures.sh            run the benchmarks (each prints its figure beside its peer
#                                       from the same run), keep their `figure` lines in
#                                       Benchmarks/figures.tsv, and rewrite the README's table
#   scripts/bench-figures.sh --render   print the table from Benchmarks/figures.tsv (ReadmeTruthTests
#                                       checks that the README holds exactly this)
#   scripts/bench-figures.sh --merge F  take the rows of F (the BENCH_FIGURES file of some of the
#                                       benchmarks, run by hand) in place of the rows with the same
#                                       ids, and rewrite the README's table
#
# Takes about fifteen minutes on the 2-core machine (the 10^6-name memory run and Gridlock's launches most of it).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
figures=Benchmarks/figures.tsv

render() {
  echo "| workload | imgtrace | peer, same run | cost ÷ peer's | goal |"
  echo "|---|---|---|---|---|"
  # A rate (MB/s) costs the inverse: wc -l at 8,000 MB/s against 300 MB/s is a cost 27× the peer's.
  awk -F '\t' '{
    ratio = ($6 == "MB/s") ? ($3 > 0 ? $5 / $3 : 0) : ($5 > 0 ? $3 / $5 : 0)
    shown = (ratio > 0 && ratio < 0.1) ? sprintf("1/%.0f", 1 / ratio) : sprintf("%.1f×", ratio)
    printf "| %s | %s %s | %s: %s %s | %s | %s |\n", $2, $3, $6, $4, $5, $6, shown, ($7 == "-" ? "—" : $7)
  }' "$figures"
}

if [ "${1:-}" = --render ]; then
  render
  exit 0
fi

write_readme() {
  local table
  table=$(render)
  python3 - "$table" <<'PY'
import sys
table = sys.argv[1]
text = open("README.md", encoding="utf-8").read()
begin, end = "<!-- figures:begin (scripts/bench-figures.sh) -->", "<!-- figures:end -->"
head, rest = text.split(begin, 1)
_, tail = rest.split(end, 1)
open("README.md", "w", encoding="utf-8").write(head + begin + "\n" + table + "\n" + end + tail)
PY
}

if [ "${1:-}" = --merge ]; then
  fresh=${2:?usage: scripts/bench-figures.sh --merge FILE}
  merged=$(mktemp)
  awk -F '\t' 'NR == FNR { fresh[$1] = $0; next } !($1 in fresh) { print } END { for (id in fresh) print fresh[id] }' "$fresh" "$figures" |
    sort -t "$(printf '\t')" -k1,1 >"$merged"
  mv "$merged" "$figures"
  write_readme
  echo "bench-figures: merged $(wc -l <"$fresh") rows from $fresh into $figures and the README's figures table"
  exit 0
fi

collected=$(mktemp)
export BENCH_FIGURES=$collected
scripts/bench-car.sh 100000
scripts/bench-trace.sh 512 20000 0
scripts/bench-trace.sh 512 20000 8
scripts/bench-catalog.sh 20000
scripts/bench-memory.sh
scripts/bench-record.sh 40000
scripts/bench-launch.sh 5
scripts/bench-image-time.sh 5
sort -t "$(printf '\t')" -k1,1 "$collected" >"$figures"
rm -f "$collected"
write_readme
echo "bench-figures: wrote $figures and the README's figures table"

#!/usr/bin/env bash
# The performance guard of CI: a fixed set of small workloads, each run once by the release
# build under `valgrind --tool=callgrind`, its instruction count compared with
# Benchmarks/baseline.json. Instructions do not depend on how busy the machine is, so a
# workload more than 10% above its baseline is a regression, whatever else CI is doing: the
# script names it with both figures and exits 1.
#
#   scripts/bench-check.sh            check (what .ci/run does)
#   scripts/bench-check.sh --update   write the counts as the new baseline (a reviewed commit,
#                                     with the reason in its message)
#
# Inputs are generated with fixed seeds; hashing is made deterministic (SWIFT_DETERMINISTIC_HASHING)
# so a Dictionary's layout does not move the counts between runs. Valgrind cannot read the
# toolchain's DWARF, so it runs copies of the binaries with their debug information stripped.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
mode=${1:-check}
baseline=Benchmarks/baseline.json
tolerance=0.10
work=${BENCH_DIR:-bench-out}/check
rm -rf "$work" && mkdir -p "$work/bin"

swift build -c release --product imgtrace >/dev/null
swift build -c release --product CatalogBench >/dev/null
bin_dir=$(swift build -c release --show-bin-path)
for tool in imgtrace CatalogBench; do
  cp "$bin_dir/$tool" "$work/bin/$tool"
  strip -g "$work/bin/$tool"
done
imgtrace="$work/bin/imgtrace"

# The inputs: a synthetic catalog, a hit-dense and a chatty log, a bundle, a source tree, two baselines.
"$work/bin/CatalogBench" --write 20000 "$work/synthetic.car"
python3 scripts/make-trace-log.py "$work/dense.log" 2 3000 0
python3 scripts/make-trace-log.py "$work/chatty.log" 2 3000 8
python3 scripts/make-bundle.py 400 "$work/Bundle.app" >/dev/null
python3 - "$work" <<'PY'
import os, sys
work = sys.argv[1]
def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f: f.write(data)
for c in range(4):
    for s in range(50):
        names = [f"icon_{c}_{s}@2x.png", f"icon_{c}_{s}@3x.png"]
        entries = ",\n".join(f'    {{ "filename" : "{n}", "idiom" : "universal", "scale" : "{n[-6:-4]}" }}' for n in names)
        write(f"{work}/src/Module{c}/Assets.xcassets/icon_{c}_{s}.imageset/Contents.json", '{\n  "images" : [\n' + entries + "\n  ]\n}\n")
for i in range(40):
    write(f"{work}/src/UI/View{i}.xib", "<document>\n" + "".join(f'  <imageView image="icon_{i % 4}_{k}"/>\n' for k in range(25)) + "</document>\n")
for name, shift in (("old", 0), ("new", 500)):
    lines = [f'    {{"fingerprint": "{i + shift:016x}", "rule": "missing-image", "severity": "error", "message": "`n{i}` loads nothing"}}' for i in range(5000)]
    write(f"{work}/{name}.json", '{\n  "schemaVersion": 1,\n  "kind": "imgtrace-baseline",\n  "device": "iphone-se",\n'
          + '  "launch": {"loads": 1, "names": 1, "images": 1, "decodedBytes": 1, "bytesOnDisk": 1, "missing": 0, "repeated": 0, "unreadable": 0, "largestImageDecodedBytes": 1},\n'
          + '  "findings": [\n' + ",\n".join(lines) + "\n  ]\n}\n")
PY

# A source tree of 2,000 targets sharing one phase of 2,000 files, and an unused set of 1,000 files
# for --fix: linear in what the project declares (issue 58), quadratic once.
python3 scripts/make-unused-trees.py "$work/unused" 2000 1000

# At the scale of real inputs (issue 61): the small dense workloads above held within 10 % while the
# large-log figures slid 2×, since what each line costs beyond a hit never showed in them. A mixed
# log of 4 MiB in `../shared/bench/genlog.py`'s shapes (console lines with CR LF, stop reports,
# `p`/`po` values, UTF-8 and path names), a catalog of 100,000 renditions, and the unused scan of a
# real repository (the corpus's home-assistant-ios-repo).
shared=${SHARED_DIR:-../shared}
[ -f "$shared/bench/genlog.py" ] || { echo "bench-check: needs $shared/bench/genlog.py (CI has ../shared beside the checkout)" >&2; exit 1; }
python3 -c "import sys; sys.path.insert(0, sys.argv[1]); from genlog import generate; generate(sys.argv[2], 4 << 20)" "$shared/bench" "$work/mixed.log" >/dev/null
"$work/bin/CatalogBench" --write 100000 "$work/large.car"
real_tree="$shared/corpus/sources/home-assistant-ios-repo"
[ -d "$real_tree" ] || { echo "bench-check: needs $real_tree (the corpus)" >&2; exit 1; }

# A program that calls a library's `image_named` 5,000 times: what `record` does per hit, in the
# tracer (the traced program runs natively; only imgtrace's instructions are counted).
printf '%s\n' '__attribute__((noinline)) const char *image_named(void *c, void *s, const char *n) { __asm__ volatile(""); return n; }' >"$work/imagekit.c"
printf '%s\n' '#include <stdlib.h>' 'const char *image_named(void *, void *, const char *);' \
  'int main(int c, char **v) { const char *n[] = {"AppIcon", "tab_home", "hero_banner", "icon@2x"}; long k = atol(v[1]); for (long i = 0; i < k; i++) image_named(0, 0, n[i % 4]); return 0; }' >"$work/loop.c"
cc -O1 -shared -fPIC -o "$work/libimagekit.so" "$work/imagekit.c"
cc -O1 -o "$work/loop" "$work/loop.c" -L"$work" -limagekit -Wl,-rpath,"$work"

# name|command: each runs once under callgrind.
workloads=(
  "car-reader|$work/bin/CatalogBench --read $work/synthetic.car"
  "trace-dense-text|$imgtrace trace $work/dense.log"
  "trace-dense-json|$imgtrace trace $work/dense.log --format json"
  "trace-chatty-text|$imgtrace trace $work/chatty.log"
  "analyze-dense-text|$imgtrace analyze $work/dense.log --bundle Examples/SampleApp.app --fail-on never"
  "analyze-dense-json|$imgtrace analyze $work/dense.log --bundle Examples/SampleApp.app --fail-on never --format json"
  "catalog-bundle|$imgtrace catalog $work/Bundle.app"
  "source-root-index|$imgtrace analyze Examples/launch.log --bundle Examples/SampleApp.app --fail-on never --source-root $work/src"
  "unused-shared-phase|$imgtrace unused --bundle $work/unused/shared-phase --source-root $work/unused/shared-phase --fail-on never"
  "unused-fix-large-set|$imgtrace unused --bundle $work/unused/large-set --source-root $work/unused/large-set --fail-on never --fix $work/large-set.patch"
  "baseline-compare|$imgtrace baseline compare $work/old.json $work/new.json --fail-on never"
  "trace-mixed-4mib|$imgtrace trace $work/mixed.log"
  "trace-mixed-4mib-json|$imgtrace trace $work/mixed.log --format json"
  "analyze-mixed-4mib|$imgtrace analyze $work/mixed.log --bundle Examples/SampleApp.app --fail-on never --format json"
  "car-reader-100k|$work/bin/CatalogBench --read $work/large.car"
  "unused-real-tree|$imgtrace unused --bundle $real_tree --source-root $real_tree --fail-on never --format json"
  "record-hits|$imgtrace record --symbol image_named --no-launch-end --backtrace 0 --output $work/record.log -- $work/loop 5000"
  "record-frames|$imgtrace record --symbol image_named --no-launch-end --output $work/record-frames.log -- $work/loop 5000"
)

count() {
  local log=$work/callgrind.err
  # shellcheck disable=SC2086
  SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null $1 >/dev/null 2>"$log" || {
    echo "bench-check: the workload failed: $1" >&2
    tail -5 "$log" >&2
    exit 1
  }
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$log" | tail -1
}

results=()
for entry in "${workloads[@]}"; do
  name=${entry%%|*}
  results+=("$name $(count "${entry#*|}")")
done

if [ "$mode" = --update ]; then
  {
    echo '{'
    echo '  "schemaVersion": 1,'
    echo "  \"tolerance\": $tolerance,"
    echo '  "instructions": {'
    for i in "${!results[@]}"; do
      set -- ${results[$i]}
      sep=,; [ "$i" -eq $((${#results[@]} - 1)) ] && sep=
      echo "    \"$1\": $2$sep"
    done
    echo '  }'
    echo '}'
  } >"$baseline"
  echo "bench-check: wrote $baseline"
  for line in "${results[@]}"; do printf '  %-22s %15s\n' $line; done
  exit 0
fi

failed=0
printf '%-22s %15s %15s %8s\n' workload baseline now change
for line in "${results[@]}"; do
  set -- $line
  before=$(sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" "$baseline")
  if [ -z "$before" ]; then
    printf '%-22s %15s %15s %8s  NOT IN THE BASELINE\n' "$1" - "$2" -
    failed=1
    continue
  fi
  verdict=$(awk -v b="$before" -v n="$2" -v t="$tolerance" 'BEGIN { c = (n - b) / b; printf "%+7.1f%%", 100 * c; if (c > t) printf " REGRESSION" }')
  printf '%-22s %15s %15s %s\n' "$1" "$before" "$2" "$verdict"
  case "$verdict" in *REGRESSION*) failed=1 ;; esac
done
if [ "$failed" -ne 0 ]; then
  echo "bench-check: a workload is more than $(awk -v t="$tolerance" 'BEGIN { print 100 * t }')% above its baseline instruction count (above)." >&2
  echo "bench-check: fix it, or update Benchmarks/baseline.json with scripts/bench-check.sh --update in a commit that says why." >&2
fi
exit $failed

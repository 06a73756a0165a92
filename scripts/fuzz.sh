#!/usr/bin/env bash
# Runs libFuzzer on one reader (or all of them) and prints its figures.
#
#   scripts/fuzz.sh list                 the targets
#   scripts/fuzz.sh TARGET [SECONDS]     one target, 60 s by default
#   scripts/fuzz.sh all [SECONDS]        every target in turn, SECONDS each
#
# Env: FUZZ_RUNS=N also stops a target after N executions (whichever of the two comes first);
#      FUZZ_KEEP=1 keeps the grown corpus in .fuzz/TARGET/corpus between runs;
#      FUZZ_NO_BUILD=1 runs the binaries already built (a long run beside other builds, which
#      would otherwise wait on, or fail for, the build folder's lock), or FUZZ_TOOL and
#      FUZZ_FUZZER (copies of the plain and the fuzzing build);
#      FUZZ_FORK=1 runs libFuzzer's fork mode: inputs run in short-lived child processes, so a
#      library that leaks a little per input (Foundation's plist parser on malformed XML) cannot
#      add up to the process limit over millions of runs; crashes, timeouts and OOMs still count;
#      FUZZ_TIMEOUT (seconds, default 1) and FUZZ_RSS_MB (default 512) are what count as a finding;
#      FUZZ_CONFIG=debug builds the fuzzing build unoptimized: slower per input, but built in a
#      third of the time from scratch (CI's short smoke run, where the build is most of the cost).
# Time per input is held the same way: libFuzzer's timeout is wall-clock time, which a busy
# machine stretches, so afterwards every input of the grown corpus is run again, alone, by the
# plain build and the slowest is reported ("slowest"); over 1 s is a finding.
# Memory per input is held two ways: no single allocation above FUZZ_RSS_MB while fuzzing (the
# fuzzing process itself, with AddressSanitizer's shadow and libFuzzer's corpus, may grow to
# 2 GB over millions of runs), and afterwards every input of the grown corpus is replayed by the
# plain build in one process whose peak memory is reported ("replay peak"): it bounds them all.
# A finding (crash, input over 1 s, over 512 MB) is saved in .fuzz/TARGET/findings and the
# script exits 1; replay it with `.build/debug/imgtrace-fuzz replay TARGET FILE`, fix it, and
# copy the file into Fuzz/Regressions/TARGET/ so CI replays it for ever.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
what=${1:?usage: scripts/fuzz.sh list | TARGET [SECONDS] | all [SECONDS]}
seconds=${2:-60}

# The plain (release) build seeds and replays; it also times every input of the grown corpus.
if [ "${FUZZ_NO_BUILD:-0}" = 1 ]; then
  tool=${FUZZ_TOOL:-.build/release/imgtrace-fuzz}
else
  swift build -c release --product imgtrace-fuzz >/dev/null
  tool=$(swift build -c release --show-bin-path)/imgtrace-fuzz
fi
if [ "$what" = list ]; then "$tool" list; exit 0; fi

# The fuzzing build: release (or FUZZ_CONFIG), libFuzzer and AddressSanitizer, the libFuzzer entry point.
fuzz_flags=(-c "${FUZZ_CONFIG:-release}" --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING)
if [ "${FUZZ_NO_BUILD:-0}" = 1 ]; then
  fuzzer=${FUZZ_FUZZER:-.build-fuzz/release/imgtrace-fuzz}
else
  swift build "${fuzz_flags[@]}" --product imgtrace-fuzz >/dev/null
  fuzzer=$(swift build "${fuzz_flags[@]}" --show-bin-path)/imgtrace-fuzz
fi

# Largest input per target: big enough for a real header or a small archive, small enough to stay fast.
max_len() {
  case "$1" in
    car|zip) echo 65536 ;;
    log|bplist|xmlplist|nib|image|baseline) echo 16384 ;;
    *) echo 4096 ;;
  esac
}

# Real files from ../shared/corpus as extra seeds, when it is there (never copied into git).
shared_seeds() {
  local target=$1 dir=$2 corpus=../shared/corpus
  [ -d "$corpus" ] || return 0
  mkdir -p "$dir"
  case "$target" in
    log|analyze) find "$corpus/lldb" "$corpus/e2e" "$corpus/hostile" -name '*.txt' -o -name '*.log' 2>/dev/null | head -40 ;;
    car) find "$corpus/car" -name '*.car' -size -1M 2>/dev/null ;;
    xcassets) find "$corpus/xcassets" -name Contents.json 2>/dev/null | head -60 ;;
    zip) find "$corpus/bundles" -name '*.ipa' -size -4M 2>/dev/null ;;
    bplist|xmlplist) find "$corpus/bundles" "$corpus/hostile" -name 'Info*.plist' 2>/dev/null | head -40 ;;
    nib) find "$corpus/bundles" "$corpus/hostile" -name '*.nib' -type f 2>/dev/null | head -40 ;;
    image) find "$corpus/bundles" "$corpus/hostile" -type f \( -name '*.png' -o -name '*.jpg' -o -name '*.tiff' -o -name '*.heic' -o -name '*.svg' -o -name '*.pdf' \) -size -64k 2>/dev/null | head -60 ;;
    strings) find "$corpus" -name '*.strings' -size -64k 2>/dev/null | head -20 ;;
  esac | while read -r file; do cp "$file" "$dir/$(echo "$file" | md5sum | cut -c1-12)-$(basename "$file")"; done
}

run_one() {
  local target=$1 work=.fuzz/$1
  [ "${FUZZ_KEEP:-0}" = 1 ] || rm -rf "$work/corpus"
  rm -rf "$work/seeds" "$work/shared" "$work/findings"
  mkdir -p "$work/corpus" "$work/findings"
  "$tool" seeds "$target" "$work/seeds"
  shared_seeds "$target" "$work/shared"
  local dirs=("$work/corpus" "$work/seeds")
  [ -d "$work/shared" ] && dirs+=("$work/shared")
  [ -d "Fuzz/Regressions/$target" ] && dirs+=("Fuzz/Regressions/$target")
  local limit=(-max_total_time="$seconds")
  [ "${FUZZ_FORK:-0}" = 1 ] && limit+=(-fork=1 -ignore_crashes=0 -ignore_timeouts=0 -ignore_ooms=0)
  [ -n "${FUZZ_RUNS:-}" ] && limit+=(-runs="$FUZZ_RUNS")
  local log="$work/fuzz.log" status=0
  IMGTRACE_FUZZ_TARGET=$target SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:quarantine_size_mb=16:malloc_context_size=4 \
    "$fuzzer" "${dirs[@]}" "${limit[@]}" -timeout="${FUZZ_TIMEOUT:-1}" -rss_limit_mb=2048 -malloc_limit_mb="${FUZZ_RSS_MB:-512}" \
    -max_len="$(max_len "$target")" -use_value_profile=1 -dict="Fuzz/Dictionaries/$target.dict" \
    -artifact_prefix="$work/findings/" -print_final_stats=1 -reload=0 >"$log" 2>&1 || status=$?
  local runs time cov ft rss found
  runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log" | tail -1)
  # Fork mode prints no final stats: its progress lines carry the executions (`#N`).
  [ -z "$runs" ] && runs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
  time=$(awk '/stat::average_exec_per_sec/ {print $2}' "$log" | tail -1)
  rss=$(awk '/stat::peak_rss_mb/ {print $2}' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  # A "slow unit" libFuzzer reports (over 10 s in the instrumented build) is no finding of its
  # own: time is judged by the plain build's replay below (an unoptimized fuzzing build takes
  # tens of seconds over swift-syntax seeds the plain build parses in milliseconds).
  found=$(find "$work/findings" -type f ! -name 'slow-unit-*' | wc -l)
  local inputs replay_kb
  inputs=$(find "$work/corpus" -type f | wc -l)
  /usr/bin/time -o "$work/replay.time" -f '%M' "$tool" replay "$target" "$work/corpus" >"$work/replay.out" 2>&1 || true
  replay_kb=$(tail -1 "$work/replay.time")
  slowest=$(sed -n 's/.*slowest \([0-9.]*\) s (\(.*\))$/\1/p' "$work/replay.out")
  slow_file=$(sed -n 's/.*slowest \([0-9.]*\) s (\(.*\))$/\2/p' "$work/replay.out")
  printf '%-9s %12s runs  %8s exec/s  cov %6s  ft %7s  findings %s  corpus %6s inputs, replay peak %s MB, slowest %s s\n' \
    "$target" "${runs:-?}" "${time:-?}" "${cov:-?}" "${ft:-?}" "$found" "$inputs" "$(( ${replay_kb:-0} / 1024 ))" "${slowest:-?}"
  if awk -v s="${slowest:-0}" 'BEGIN { exit !(s > 1.0) }'; then
    echo "  slowest input takes ${slowest} s: $slow_file"
    return 1
  fi
  if [ "$found" -gt 0 ] || { [ "$status" -ne 0 ] && [ -z "$runs" ]; }; then
    grep -E 'ERROR|Fatal error|==[0-9]+==|SUMMARY|Test unit written' "$log" | head -8 | sed 's/^/  /'
    return 1
  fi
}

failed=0
if [ "$what" = all ]; then
  for target in $("$tool" list | cut -f1); do run_one "$target" || failed=1; done
else
  run_one "$what" || failed=1
fi
exit $failed

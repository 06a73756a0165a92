#!/usr/bin/env bash
# Benchmark: the cost of one breakpoint hit, `imgtrace record` beside gdb and lldb, on a program
# that calls `image_named(cls, sel, name)` N times (the name in the third argument, rdx).
# Prints each capture's wall time and its cost per hit (its time minus the untraced run's).
# usage: scripts/bench-record.sh [HITS]   (default 10000; lldb is run on a tenth of them)
set -euo pipefail
cd "$(dirname "$0")/.."
hits=${1:-10000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/loop.c" <<'C'
#include <stdlib.h>
__attribute__((noinline)) const char *image_named(void *cls, void *sel, const char *name) { __asm__ volatile(""); return name; }
int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 1000;
    const char *names[] = {"AppIcon", "tab_home", "hero_banner", "icon@2x"};
    for (long i = 0; i < n; i++) image_named(0, 0, names[i % 4]);
    return 0;
}
C
cc -O1 -o "$work/loop" "$work/loop.c"
swift build -c release --product imgtrace >/dev/null
bin=$(swift build -c release --show-bin-path)/imgtrace

seconds() { local start end; start=$(date +%s.%N); "$@" >/dev/null 2>&1; end=$(date +%s.%N); awk -v s="$start" -v e="$end" 'BEGIN { printf "%.4f", e - s }'; }
report() { # LABEL SECONDS HITS BASELINE_SECONDS_FOR_THOSE_HITS
  awk -v l="$1" -v t="$2" -v n="$3" -v b="$4" 'BEGIN { printf "%-40s %8.3f s  %8d hits  %10.1f µs per hit\n", l, t, n, (t - b) * 1e6 / n }'
}
plain=$(seconds "$work/loop" "$hits")
report "untraced" "$plain" "$hits" "$plain"
t=$(seconds "$bin" record --symbol image_named --no-launch-end --output "$work/record.log" -- "$work/loop" "$hits")
report "imgtrace record" "$t" "$(grep -c image_named "$work/record.log")" "$plain"
if command -v gdb >/dev/null; then
  printf 'break image_named\ncommands\nsilent\nx/s $rdx\ncontinue\nend\nrun\n' >"$work/gdb.cmd"
  t=$(seconds gdb -q -batch -x "$work/gdb.cmd" --args "$work/loop" "$hits")
  report "gdb (silent, x/s \$rdx)" "$t" "$hits" "$plain"
fi
lldb=$(command -v lldb-16 || command -v lldb || true)
if [ -n "$lldb" ]; then
  few=$((hits / 10))
  small=$(seconds "$work/loop" "$few")
  t=$(seconds "$lldb" -b -o "breakpoint set -n image_named -G true -C 'p (char *)\$rdx'" -o run -- "$work/loop" "$few")
  report "lldb (p (char *)\$rdx)" "$t" "$few" "$small"
fi

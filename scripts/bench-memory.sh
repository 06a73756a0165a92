#!/usr/bin/env bash
# Memory ÷ input size per reader, on inputs large enough that the process's own ~25 MB do not
# hide the ratio: the release `imgtrace` on generated inputs of each kind, its peak memory, the
# peak above an idle run, and that ÷ the input's bytes. The bar is 10×; a line over it is marked.
#
#   scripts/bench-memory.sh [SCALE]     SCALE multiplies every input (default 1: 10–100 MB each)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
scale=${1:-1}
out=${BENCH_DIR:-bench-out}/memory
mkdir -p "$out"
. scripts/bench-measure.sh
swift build -c release --product imgtrace >/dev/null
bin=$(swift build -c release --show-bin-path)/imgtrace

python3 - "$out" "$scale" <<'EOF'
import os, sys
out, scale = sys.argv[1], int(sys.argv[2])
def hit(i, name):
    return '(lldb)  p (char *)$arg3\n(char *) $%d = 0x0000555555556113 "%s"\n' % (i, name)
with open(out + "/distinct.log", "w") as f:          # 300,000 distinct names
    for i in range(300_000 * scale): f.write(hit(i, "icon_%07d" % i))
with open(out + "/long-names.log", "w") as f:         # 1,600 names of 60 KiB
    for i in range(1_600 * scale): f.write(hit(i, ("n%05d" % i) * 10_240))
os.makedirs(out + "/src/Base.lproj", exist_ok=True)   # interface files full of image attributes
for d in range(10 * scale):
    with open(out + "/src/Base.lproj/View%d.xib" % d, "w") as f:
        f.write('<?xml version="1.0"?>\n<document>\n')
        for i in range(100_000): f.write('  <imageView image="img_%d_%06d"/>\n' % (d, i))
        f.write('</document>\n')
with open(out + "/config.yml", "w") as f:            # a config at the 1 MiB cap
    f.write("ignore:\n  names:\n")
    i = 0
    while f.tell() < (1 << 20) - 64: f.write("    - n%d\n" % i); i += 1
with open(out + "/baseline.json", "w") as f:         # a baseline near the 16 MiB cap
    f.write('{\n  "schemaVersion": 1,\n  "kind": "imgtrace-baseline",\n  "device": "iphone-se",\n')
    f.write('  "launch": {"loads": 1, "names": 1, "images": 1, "decodedBytes": 1, "bytesOnDisk": 1, "missing": 0, "repeated": 0, "unreadable": 0, "largestImageDecodedBytes": 1},\n  "findings": [\n')
    n = 100_000
    for i in range(n):
        f.write('    {"fingerprint": "%016x", "rule": "missing-image", "severity": "error", "message": "`n%d` loads nothing"}%s\n' % (i, i, "," if i < n - 1 else ""))
    f.write("  ]\n}\n")
with open(out + "/tiny.log", "w") as f: f.write(hit(0, "AppIcon"))
os.makedirs(out + "/swift", exist_ok=True)             # one 4 MiB Swift file (a generated one's size)
with open(out + "/swift/Generated.swift", "w") as f:
    i = 0
    while f.tell() < (4 << 20) - 512 * scale:
        f.write('struct Screen%d {\n    let icon = UIImage(named: "icon_%d")\n    let tint = [Color.red, Color.blue][%d %% 2]\n'
                '    func title(_ n: Int) -> String { "screen_\\(n)_%d" }\n    var hero: Image { Image(.hero%d) }\n}\n' % (i, i, i, i, i))
        i += 1
import random, zipfile                                # an .ipa whose executable inflates 64 MiB
random.seed(7)
with zipfile.ZipFile(out + "/big.ipa", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("Payload/App.app/Info.plist", '<?xml version="1.0"?><plist version="1.0"><dict><key>CFBundleExecutable</key><string>App</string></dict></plist>')
    words = ["icon_%d" % i for i in range(5000)]
    body = bytearray()
    while len(body) < (64 << 20) * scale:
        body += random.randbytes(24) + random.choice(words).encode() + b"\0"
    z.writestr("Payload/App.app/App", bytes(body))
    z.writestr("Payload/App.app/icon_1@2x.png", bytes.fromhex("89504e470d0a1a0a0000000d49484452000000100000001008060000001ff3ff61"))
EOF

peak() { /usr/bin/time -f '%M' "$bin" "$@" 2>&1 >/dev/null | tail -1; }
idle=$(peak trace "$out/tiny.log")
row() {
  local label=$1 bytes=$2; shift 2
  local kb
  kb=$(peak "$@")
  awk -v l="$label" -v b="$bytes" -v k="$kb" -v i="$idle" 'BEGIN {
    above = (k - i) * 1024; ratio = above / b
    printf "%-34s %9.1f MB in  %8.1f MB peak  %8.1f MB above idle  %5.1f×%s\n", l, b / 1048576, k / 1024, above / 1048576, ratio, (ratio > 10 ? "  OVER" : "")
  }'
}
size() { du -sb "$1" | cut -f1; }
echo "idle run (one-line log): $(awk -v k="$idle" 'BEGIN { printf "%.1f MB", k / 1024 }')"
row "trace, 300k distinct names" "$(size "$out/distinct.log")" trace "$out/distinct.log"
row "analyze, 300k distinct names" "$(size "$out/distinct.log")" analyze "$out/distinct.log" --bundle Examples/SampleApp.app --fail-on never --format json
row "trace, 60 KiB names" "$(size "$out/long-names.log")" trace "$out/long-names.log"
row "analyze, 60 KiB names" "$(size "$out/long-names.log")" analyze "$out/long-names.log" --bundle Examples/SampleApp.app --fail-on never
row "--source-root, xib attributes" "$(size "$out/src")" analyze "$out/tiny.log" --bundle Examples/SampleApp.app --fail-on never --source-root "$out/src"
row "config, 1 MiB of ignore names" "$(size "$out/config.yml")" analyze "$out/tiny.log" --bundle Examples/SampleApp.app --fail-on never --config "$out/config.yml"
row "unused, a 4 MiB Swift file" "$(size "$out/swift")" unused --bundle Examples/SampleApp.app --source-root "$out/swift" --fail-on never
row "unused, .ipa, 64 MiB executable" "$(( (64 << 20) * scale ))" unused --bundle "$out/big.ipa" --fail-on never
row "baseline compare, 100k findings" "$(( 2 * $(size "$out/baseline.json") ))" baseline compare "$out/baseline.json" "$out/baseline.json"
# Every analyze format on the 300k names: reporters write findings as they build them, so the
# worst format stays near the JSON figure above.
worst_kb=0 worst=""
for format in text json markdown html sarif xcode github junit checkstyle gitlab; do
  kb=$(peak analyze "$out/distinct.log" --bundle Examples/SampleApp.app --fail-on never --format "$format")
  if [ "$kb" -gt "$worst_kb" ]; then worst_kb=$kb worst=$format; fi
done
awk -v w="$worst" -v b="$(size "$out/distinct.log")" -v k="$worst_kb" -v i="$idle" 'BEGIN {
  above = (k - i) * 1024; ratio = above / b
  printf "%-34s %9.1f MB in  %8.1f MB peak  %8.1f MB above idle  %5.1f×%s\n", "analyze 300k, worst format: " w, b / 1048576, k / 1024, above / 1048576, ratio, (ratio > 10 ? "  OVER" : "")
}'
# Bytes per distinct name after the log is read (issue bar: 400), at 10^5 and 10^6 names, beside trace.
python3 - "$out" <<'PY'
import sys
for n in (100_000, 1_000_000):
    with open("%s/names-%d.log" % (sys.argv[1], n), "w") as f:
        for i in range(n): f.write('(lldb)  p (char *)$arg3\n(char *) $%d = 0x0000555555556113 "icon_%07d"\n' % (i, i))
PY
# Each command's own idle run (the one-line log) is subtracted: what a name costs, not the bundle.
analyze_idle=$(peak analyze "$out/tiny.log" --bundle Examples/SampleApp.app --fail-on never --format json)
for n in 100000 1000000; do
  a=$(peak analyze "$out/names-$n.log" --bundle Examples/SampleApp.app --fail-on never --format json)
  t=$(peak trace "$out/names-$n.log")
  awk -v n="$n" -v a="$a" -v t="$t" -v i="$idle" -v ai="$analyze_idle" 'BEGIN {
    printf "per distinct name at %7d names:  analyze %4.0f B   trace %4.0f B   (above each command idle run)\n", n, (a - ai) * 1024 / n, (t - i) * 1024 / n
  }'
  figure "analyze-bytes-per-name-$n" "analyze memory per distinct name, $n names" \
    "$(awk -v n="$n" -v a="$a" -v ai="$analyze_idle" 'BEGIN { printf "%.0f", (a - ai) * 1024 / n }')" \
    "trace, same log" "$(awk -v n="$n" -v t="$t" -v i="$idle" 'BEGIN { printf "%.0f", (t - i) * 1024 / n }')" B/name "≤ 400 B/name"
done
rm -f "$out"/names-*.log
